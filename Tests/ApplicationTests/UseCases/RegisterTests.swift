import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

@Suite("Register")
struct RegisterTests {
    @Test("a registration is validated locally before any request")
    func localValidationFirst() async throws {
        let harness = try UseCaseHarness()
        let registration = Registration(email: "nope", password: "short", displayName: "", riderType: .learner)

        let error = await #expect(throws: RiderError.self) { try await harness.register(registration) }
        guard let riderError = error, riderError.code == .invalidInput, case let problems = riderError.fieldProblems else {
            Issue.record("expected .invalidInput, got \(String(describing: error))")
            return
        }
        #expect(problems.map(\.field) == ["email", "password", "display_name"])
        #expect(harness.transport.requests.isEmpty)
    }

    @Test("a valid registration is sent as snake_case JSON without a token and returns the new id")
    func sendsJSON() async throws {
        let harness = try UseCaseHarness.signedIn()
        harness.transport.stub(.post, "/auth/register", times: 1, with: .successful(
            Fixtures.registered(id: "u_000002"), status: 201, headers: ["Location": "/users/u_000002"]))
        var registration = Fixtures.registration
        registration.displayName = "  Grace Hopper "

        let id = try await harness.register(registration)

        #expect(id == "u_000002")
        let request = try #require(harness.transport.requests.only)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.bearerToken == nil)
        let body = try #require(request.jsonObject)
        #expect(body["email"] as? String == "grace@example.com")
        #expect(body["password"] as? String == Fixtures.password)
        #expect(body["display_name"] as? String == "Grace Hopper")
        #expect(body["rider_type"] as? String == "mentor")
    }

    @Test("a taken email is .alreadyExists")
    func emailTaken() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, "/auth/register", times: 1, with: .problem(status: 409, detail: "email already registered"))

        await #expect(throws: RiderError.alreadyExists(detail: "email already registered")) {
            try await harness.register(Fixtures.registration)
        }
    }

    @Test("field errors from the server are mapped to field problems")
    func serverValidation() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, "/auth/register", times: 1, with: .problem(status: 422, errors: [
            (field: "email", message: "must look like an address"),
            (field: "rider_type", message: "must be mentor or learner"),
        ]))

        await #expect(throws: RiderError.invalidInput([
            FieldProblem(field: "email", message: "must look like an address"),
            FieldProblem(field: "rider_type", message: "must be mentor or learner"),
        ])) {
            try await harness.register(Fixtures.registration)
        }
    }

    @Test("the password never appears in a registration error")
    func passwordNotInErrors() async throws {
        let harness = try UseCaseHarness()
        harness.transport.stub(.post, "/auth/register", times: 1, with: .problem(status: 500))
        var registration = Fixtures.registration
        registration.password = "SECRET-password"

        let error = await #expect(throws: (any Error).self) { try await harness.register(registration) }
        for (how, text) in renderings(ofError: try #require(error)) {
            #expect(!text.contains("SECRET"), "\(how): \(text)")
        }
    }
}
