/// One event of a Server-Sent Events stream, as the WHATWG HTML standard's EventSource
/// dispatches it (§9.2 "Server-sent events").
package struct ServerSentEvent: Hashable, Sendable {
    /// The event's type: the last `event` field's value, `"message"` when there was none.
    package var type: String
    /// The `data` fields' values joined with line feeds (one `data` line gives its value as is).
    package var data: String
    /// The stream's last event id when the event was dispatched: the last `id` field seen so far
    /// in the stream, in this event or an earlier one (`""` when none was, or after an empty `id`).
    package var lastEventID: String

    /// - Parameters:
    ///   - type: the event's type; `"message"` unless the stream names another.
    ///   - data: the event's data.
    ///   - lastEventID: the stream's last event id at dispatch.
    package init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}

/// Why a Server-Sent Events stream could not be parsed.
package enum ServerSentEventError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One event (what it holds — data, type, id — and the line being read) took more bytes than
    /// the parser's bound: the stream is not read further, so a server cannot make the client
    /// hold an unbounded event in memory.
    case eventTooLarge(limit: Int)

    package var description: String {
        switch self {
        case .eventTooLarge(let limit): "a server-sent event is larger than \(limit) bytes"
        }
    }
}

/// Parses a Server-Sent Events stream (`text/event-stream`) incrementally: bytes in, in chunks
/// cut anywhere, events out — exactly by the WHATWG HTML standard's rules (§9.2.6 "Interpreting
/// an event stream"):
///
/// - a UTF-8 byte order mark at the very start is skipped; invalid UTF-8 becomes U+FFFD;
/// - lines end with CRLF, LF or CR (a CR at the end of one chunk and an LF at the start of the
///   next are one line ending);
/// - a line that starts with `:` is a comment; a line without `:` is a field with an empty
///   value; one space after the colon is removed;
/// - `data` appends its value and a line feed to the event's data, `event` sets its type, `id`
///   sets the stream's last event id (unless the value contains U+0000), `retry` sets the
///   reconnection time when its value is ASCII digits only; other fields are ignored;
/// - a blank line dispatches the event: an event without data is not dispatched (but its `id`
///   still becomes the stream's last event id), the final line feed of the data is removed;
/// - at the end of the stream, an event not ended by a blank line is discarded.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// for try await chunk in body {
///     for event in try parser.parse(chunk) { handle(event.data) }
/// }
/// ```
///
/// A value type with no I/O: it holds the bytes of the line being read and the event being
/// built, nothing else.
package struct ServerSentEventParser: Sendable {
    /// The most bytes one event may hold: its data, type and id, and the line being read (a
    /// comment line counts while it is read, and is then forgotten).
    package let maximumEventSize: Int
    /// The stream's last event id: what a reconnection sends as `Last-Event-ID` when not empty.
    package private(set) var lastEventID = ""
    /// The reconnection time in milliseconds, when the stream set one with `retry`.
    package private(set) var reconnectionTime: Int?

    /// The bytes of the line being read, without its line ending.
    private var line: [UInt8] = []
    /// The bytes the event being built holds (data, type, id), for the size bound.
    private var held = 0
    private var data = ""
    private var hasData = false
    private var eventType = ""
    /// The id the event being built set, if any: it becomes ``lastEventID`` when the event is
    /// dispatched (the standard's "last event ID buffer").
    private var idBuffer: String?
    /// The previous chunk ended with CR: an LF at the start of this one belongs to that line ending.
    private var skipsLineFeed = false
    /// How many bytes of the stream's start were read, while a byte order mark may still be coming.
    private var bomBytesSeen = 0
    private var bomChecked = false

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// - Parameter maximumEventSize: the most bytes one event may take; 4 MiB unless told.
    package init(maximumEventSize: Int = 4 << 20) {
        self.maximumEventSize = maximumEventSize
    }

    /// Reads the next bytes of the stream.
    /// - Parameter bytes: the next chunk, cut anywhere (inside a line ending or a UTF-8 sequence too).
    /// - Returns: the events the chunk completed, in order.
    /// - Throws: ``ServerSentEventError/eventTooLarge(limit:)`` when an event grows past
    ///   ``maximumEventSize``; the parser should not be used further.
    package mutating func parse(_ bytes: some Sequence<UInt8>) throws(ServerSentEventError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if !bomChecked {
                // Hold back a prefix of the byte order mark until it is complete or broken.
                if byte == Self.byteOrderMark[bomBytesSeen] {
                    bomBytesSeen += 1
                    if bomBytesSeen == Self.byteOrderMark.count { bomChecked = true }
                    continue
                }
                bomChecked = true
                let held = Self.byteOrderMark.prefix(bomBytesSeen)
                bomBytesSeen = 0
                for heldByte in held { try consume(heldByte, into: &events) }
            }
            try consume(byte, into: &events)
        }
        return events
    }

    /// Ends the stream: an event not ended by a blank line (and a last line without a line
    /// ending) is discarded, as the standard says. ``lastEventID`` and ``reconnectionTime`` stay.
    package mutating func finish() {
        line.removeAll()
        resetEvent()
        skipsLineFeed = false
        bomChecked = false
        bomBytesSeen = 0
    }

    private mutating func consume(_ byte: UInt8, into events: inout [ServerSentEvent]) throws(ServerSentEventError) {
        if skipsLineFeed {
            skipsLineFeed = false
            if byte == UInt8(ascii: "\n") { return }
        }
        switch byte {
        case UInt8(ascii: "\r"):
            skipsLineFeed = true
            endLine(into: &events)
        case UInt8(ascii: "\n"):
            endLine(into: &events)
        default:
            guard held + line.count < maximumEventSize else { throw .eventTooLarge(limit: maximumEventSize) }
            line.append(byte)
        }
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else {
            dispatch(into: &events)
            return
        }
        if line.first == UInt8(ascii: ":") { return }
        let field: String
        var value: Substring = ""
        // CR and LF never occur inside a UTF-8 sequence, so a whole line decodes on its own.
        let text = String(decoding: line, as: UTF8.self)
        if let colon = text.firstIndex(of: ":") {
            field = String(text[..<colon])
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = text
        }
        switch field {
        case "event":
            held += value.utf8.count - eventType.utf8.count
            eventType = String(value)
        case "data":
            data += value
            data += "\n"
            held += value.utf8.count + 1
            hasData = true
        case "id":
            if !value.contains("\u{0}") {
                held += value.utf8.count - (idBuffer?.utf8.count ?? 0)
                idBuffer = String(value)
            }
        case "retry":
            if !value.isEmpty, value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                // Digits beyond Int's range saturate rather than trap.
                reconnectionTime = Int(value) ?? Int.max
            }
        default:
            break
        }
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        if let idBuffer { lastEventID = idBuffer }
        defer { resetEvent() }
        guard hasData else { return }
        if data.hasSuffix("\n") { data.removeLast() }
        events.append(ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: data,
                                      lastEventID: lastEventID))
    }

    private mutating func resetEvent() {
        data = ""
        hasData = false
        eventType = ""
        idBuffer = nil
        held = 0
    }
}
