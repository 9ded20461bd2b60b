import Foundation
import RiderKit
import TestSupport

/// Headless Chromium driven through WebDriver (the W3C protocol chromedriver speaks over HTTP),
/// so a test can use a web page as a person does: open it, type into its fields, press its
/// buttons, read what it says. Debian's `chromium` and `chromium-driver` (scripts/install-deps.sh);
/// a missing one fails the test, it is never skipped.
struct WebDriver: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// W3C WebDriver's key for an element reference in JSON.
    private static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    private let endpoint: URL
    private let session: String
    private let transport: AsyncHTTPClientTransport

    /// Runs `body` with a fresh headless browser; the browser and its driver stop afterwards.
    static func withBrowser<T: Sendable>(_ body: (WebDriver) async throws -> T) async throws -> T {
        // One Chromium at a time in the whole test process: three at once beside the rest of the
        // suite on 2 cores starved each other past rider's 120 s hang detector.
        await BrowserTurn.shared.take()
        do {
            let result = try await withOwnBrowser(body)
            await BrowserTurn.shared.give()
            return result
        } catch {
            await BrowserTurn.shared.give()
            throw error
        }
    }

    /// Whose turn it is to run a browser; waiters go in the order they asked.
    private actor BrowserTurn {
        static let shared = BrowserTurn()
        private var taken = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func take() async {
            guard taken else {
                taken = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func give() {
            if waiting.isEmpty { taken = false } else { waiting.removeFirst().resume() }
        }
    }

    private static func withOwnBrowser<T: Sendable>(_ body: (WebDriver) async throws -> T) async throws -> T {
        let driverPath = "/usr/bin/chromedriver"
        guard FileManager.default.isExecutableFile(atPath: driverPath) else {
            throw Failure(description: "\(driverPath) is missing: install chromium-driver (scripts/install-deps.sh)")
        }
        let port = try LoopbackSocket.closedPort()
        let driver = Process()
        driver.executableURL = URL(fileURLWithPath: driverPath)
        driver.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        // RiderKit's own transport: FoundationNetworking's URLSession fails on chromedriver's answers here.
        // A generous timeout: a click that leads to rider's loopback lasts until rider has finished
        // the sign-in (its listener holds the browser's request until then), which under the whole
        // suite on two cores outlasted the 15 s default. It is a hang detector, not a test of time.
        let transport = AsyncHTTPClientTransport(configuration: .init(timeout: 120))
        do {
            let result = try await withDriver(port: port, transport: transport, body)
            await transport.shutdown()
            await driver.stop()
            return result
        } catch {
            await transport.shutdown()
            await driver.stop()
            throw error
        }
    }

    private static func withDriver<T: Sendable>(port: UInt16, transport: AsyncHTTPClientTransport,
                                                _ body: (WebDriver) async throws -> T) async throws -> T {
        guard let endpoint = URL(string: "http://127.0.0.1:\(port)") else { throw Failure(description: "no URL for port \(port)") }
        // Ready when it answers (a hang detector, not a speed limit).
        var ready = false
        var lastAnswer = "nothing"
        for _ in 0..<300 where !ready {
            do {
                let status = try await call(transport, endpoint, "GET", "status")
                ready = (status["value"] as? [String: Any])?["ready"] as? Bool == true
                lastAnswer = "\(status)"
            } catch {
                lastAnswer = "\(error)"
            }
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        guard ready else { throw Failure(description: "chromedriver did not start (last answer: \(lastAnswer))") }

        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("rider-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--user-data-dir=\(profile.path)"]
        let created = try await call(transport, endpoint, "POST", "session", [
            "capabilities": ["alwaysMatch": [
                "browserName": "chrome",
                "goog:chromeOptions": ["binary": "/usr/bin/chromium", "args": arguments],
            ]],
        ])
        guard let session = (created["value"] as? [String: Any])?["sessionId"] as? String else {
            throw Failure(description: "chromedriver started no browser: \(created)")
        }
        let browser = WebDriver(endpoint: endpoint, session: session, transport: transport)
        do {
            let result = try await body(browser)
            _ = try? await call(transport, endpoint, "DELETE", "session/\(session)")
            return result
        } catch {
            _ = try? await call(transport, endpoint, "DELETE", "session/\(session)")
            throw error
        }
    }

    /// Opens `url` and waits for the page to load.
    func open(_ url: URL) async throws {
        _ = try await command("POST", "url", ["url": url.absoluteString])
    }

    /// Types `text` into the element with this id (once the page that has it is there).
    func type(_ text: String, into id: String) async throws {
        try await settled { _ = try await command("POST", "element/\(try element(id))/value", ["text": text]) }
    }

    /// Presses the element with this id (a button submits its form, and the next page loads).
    func click(_ id: String) async throws {
        try await click(css: "#\(id)")
    }

    /// Presses the first element matching a CSS selector, for pages without ids on their buttons.
    /// Waits for the page a previous click started: until then the selector may find nothing, or
    /// an element of the old page that goes stale under the click.
    func click(css selector: String) async throws {
        try await settled { _ = try await command("POST", "element/\(try element(css: selector))/click", [:]) }
    }

    /// The address the browser shows now (after redirects).
    func currentURL() async throws -> String {
        try await command("GET", "url")["value"] as? String ?? ""
    }

    /// The value of the element with this id (a field's current text).
    func value(of id: String) async throws -> String {
        try await settled { try await command("GET", "element/\(try element(id))/property/value")["value"] as? String ?? "" }
    }

    /// The text a person reads on the page.
    func pageText() async throws -> String {
        try await settled {
            let body = try await command("POST", "element", ["using": "css selector", "value": "body"])
            guard let id = (body["value"] as? [String: Any])?[Self.elementKey] as? String else { return "" }
            return try await command("GET", "element/\(id)/text")["value"] as? String ?? ""
        }
    }

    /// The text of the first element matching `selector`, once the page shows one (after a click,
    /// the next page's; a hang detector bounds the wait).
    func waitFor(_ selector: String) async throws -> String {
        try await settled {
            let found = try await command("POST", "element", ["using": "css selector", "value": selector])
            guard let id = (found["value"] as? [String: Any])?[Self.elementKey] as? String else {
                throw Failure(description: "no such element \(selector) on the page: \(found)")
            }
            return try await command("GET", "element/\(id)/text")["value"] as? String ?? ""
        }
    }

    /// The page's title.
    func title() async throws -> String {
        try await command("GET", "title")["value"] as? String ?? ""
    }

    /// `read` once the page a click started has replaced the old one: while it loads, elements
    /// of the old page go stale (a hang detector bounds the wait, not a speed limit).
    private func settled<T>(_ read: () async throws -> T) async throws -> T {
        for _ in 0..<100 {
            do {
                return try await read()
            } catch let failure as Failure where failure.description.contains("stale element")
                || failure.description.contains("no such element") {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        return try await read()
    }

    private func element(_ id: String) async throws -> String {
        try await element(css: "#\(id)")
    }

    private func element(css selector: String) async throws -> String {
        let found = try await command("POST", "element", ["using": "css selector", "value": selector])
        guard let reference = (found["value"] as? [String: Any])?[Self.elementKey] as? String else {
            throw Failure(description: "no such element \(selector) on the page: \(found)")
        }
        return reference
    }

    private func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> [String: Any] {
        try await Self.call(transport, endpoint, method, "session/\(session)/\(path)", body)
    }

    private static func call(_ transport: AsyncHTTPClientTransport, _ endpoint: URL, _ method: String, _ path: String,
                             _ body: [String: Any]? = nil) async throws -> [String: Any] {
        var headers: HTTPHeaders = [:]
        var data: Data?
        if let body {
            headers["Content-Type"] = "application/json"
            data = try JSONSerialization.data(withJSONObject: body)
        }
        let response = try await transport.send(HTTPRequest(
            method: HTTPMethod(rawValue: method), url: endpoint.appendingPathComponent(path), headers: headers,
            body: data, timeout: 120))
        let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        guard response.status == 200 else {
            throw Failure(description: "WebDriver \(method) \(path) failed: \(object)")
        }
        return object
    }
}
