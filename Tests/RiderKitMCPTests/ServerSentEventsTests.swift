import Testing
@testable import RiderKitMCP

/// The WHATWG HTML standard's rules for an event stream (§9.2.6), its own examples first.
@Suite struct ServerSentEventsTests {
    private func events(_ text: String, maximumEventSize: Int = 4 << 20) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser(maximumEventSize: maximumEventSize)
        return try parser.parse(Array(text.utf8))
    }

    @Test func dataLinesAreJoinedWithLineFeeds() throws {
        // The standard's stock-ticker example.
        #expect(try events("data: YHOO\ndata: +2\ndata: 10\n\n") == [ServerSentEvent(data: "YHOO\n+2\n10")])
    }

    @Test func idsPersistAcrossEventsAndAnEmptyIdResetsThem() throws {
        // The standard's second example: a comment, an id, an `id` without a value, and a third
        // event with no blank line after it, which is never dispatched.
        let stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n"
        #expect(try events(stream) == [
            ServerSentEvent(data: "first event", lastEventID: "1"),
            ServerSentEvent(data: "second event", lastEventID: ""),
        ])
    }

    @Test func fieldsWithoutColonsHaveEmptyValues() throws {
        // The standard's third example: `data` alone appends an empty line; the last event is cut off.
        #expect(try events("data\n\ndata\ndata\n\ndata:") == [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")])
    }

    @Test func onlyOneSpaceAfterTheColonIsRemoved() throws {
        // The standard's fourth example: both events have the data "test".
        #expect(try events("data:test\n\ndata: test\n\n") == [ServerSentEvent(data: "test"), ServerSentEvent(data: "test")])
        #expect(try events("data:  two spaces\n\n") == [ServerSentEvent(data: " two spaces")])
    }

    @Test func linesEndWithCRLFOrLFOrCR() throws {
        let expected = [ServerSentEvent(data: "a\nb"), ServerSentEvent(data: "c")]
        #expect(try events("data: a\r\ndata: b\r\n\r\ndata: c\r\n\r\n") == expected)
        #expect(try events("data: a\rdata: b\r\rdata: c\r\r") == expected)
        #expect(try events("data: a\ndata: b\r\n\rdata: c\n\r\n") == expected)
    }

    @Test func theEventFieldSetsTheTypeForOneEventOnly() throws {
        #expect(try events("event: ping\ndata: 1\n\ndata: 2\n\n") == [
            ServerSentEvent(type: "ping", data: "1"), ServerSentEvent(type: "message", data: "2"),
        ])
    }

    @Test func anEventWithoutDataIsNotDispatchedButItsIdCounts() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Array("event: x\nid: 7\n\n".utf8)).isEmpty)
        #expect(parser.lastEventID == "7")
        #expect(try parser.parse(Array("data: after\n\n".utf8)) == [ServerSentEvent(data: "after", lastEventID: "7")])
    }

    @Test func anIdContainingNULIsIgnored() throws {
        #expect(try events("id: 1\ndata: a\n\nid: 2\u{0}3\ndata: b\n\n") == [
            ServerSentEvent(data: "a", lastEventID: "1"), ServerSentEvent(data: "b", lastEventID: "1"),
        ])
    }

    @Test func retryTakesASCIIDigitsOnly() throws {
        var parser = ServerSentEventParser()
        _ = try parser.parse(Array("retry: 1500\n\n".utf8))
        #expect(parser.reconnectionTime == 1500)
        for ignored in ["retry: 15s", "retry: -1", "retry: 1.5", "retry:", "retry: ١٢"] {
            _ = try parser.parse(Array("\(ignored)\n\n".utf8))
            #expect(parser.reconnectionTime == 1500, "\(ignored)")
        }
        _ = try parser.parse(Array("retry:0\n".utf8))
        #expect(parser.reconnectionTime == 0, "retry applies at once, without a blank line")
    }

    @Test func commentsAndUnknownFieldsAreIgnored() throws {
        #expect(try events(":keep-alive\nfoo: bar\nData: no\ndata: yes\n: more\n\n") == [ServerSentEvent(data: "yes")])
    }

    @Test func aByteOrderMarkIsStrippedAtTheStartOnly() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        var parser = ServerSentEventParser()
        let stream = bom + Array("data: a\n\n".utf8) + bom + Array("data: b\n\n".utf8)
        // The second mark is part of a field name, "\u{FEFF}data", which is no field.
        #expect(try parser.parse(stream) == [ServerSentEvent(data: "a")])
        // A broken mark is text, not dropped: "\u{FFFD}" then "data" is no field either.
        var broken = ServerSentEventParser()
        #expect(try broken.parse([0xEF, 0xBB] + Array("data: c\n\n".utf8)).isEmpty)
        var plain = ServerSentEventParser()
        #expect(try plain.parse([0xEF] + Array("\ndata: c\n\n".utf8)) == [ServerSentEvent(data: "c")])
    }

    @Test func invalidUTF8BecomesTheReplacementCharacter() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Array("data: a".utf8) + [0xC3] + Array("\n\n".utf8)) == [ServerSentEvent(data: "a\u{FFFD}")])
    }

    @Test func anEventNotEndedByABlankLineIsDiscardedAtTheEnd() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Array("id: 9\ndata: partial\n".utf8)).isEmpty)
        parser.finish()
        #expect(parser.lastEventID == "")
        // The next stream starts clean.
        #expect(try parser.parse(Array("\ndata: next\n\n".utf8)) == [ServerSentEvent(data: "next")])
    }

    @Test func anEventLargerThanTheBoundIsRefused() throws {
        #expect(try events("data: 12345\n\n", maximumEventSize: 16) == [ServerSentEvent(data: "12345")])
        #expect(throws: ServerSentEventError.eventTooLarge(limit: 16)) {
            try events("data: 1234567890\ndata: 1234567890\n\n", maximumEventSize: 16)
        }
        // One long line with no end is refused as it grows, before a line ending arrives.
        var parser = ServerSentEventParser(maximumEventSize: 64)
        #expect(throws: ServerSentEventError.eventTooLarge(limit: 64)) {
            try parser.parse(Array(repeating: UInt8(ascii: "x"), count: 65))
        }
        // Comments are forgotten once read: many of them, between events, are fine.
        #expect(try events(String(repeating: ": keep-alive\n", count: 100) + "data: ok\n\n", maximumEventSize: 32)
            == [ServerSentEvent(data: "ok")])
    }

    /// A stream with every line ending, a byte order mark, multi-byte UTF-8, ids, types, retry and
    /// comments: however it is cut in chunks, the same events come out.
    private static let sample: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(
        ": hello\r\nid: 1\r\nevent: greeting\r\ndata: Grüße 🚲\r\n\r\nretry: 2500\rdata: a\rdata:b\r\rid\ndata: ünïcödé\n\n"
            .utf8) + Array("data: {\"jsonrpc\":\"2.0\"}\r\n\r\nid: 3\r\ndata: tail\r\n".utf8)

    private static let sampleEvents = [
        ServerSentEvent(type: "greeting", data: "Grüße 🚲", lastEventID: "1"),
        ServerSentEvent(data: "a\nb", lastEventID: "1"),
        ServerSentEvent(data: "ünïcödé", lastEventID: ""),
        ServerSentEvent(data: "{\"jsonrpc\":\"2.0\"}", lastEventID: ""),
    ]

    @Test func theSampleStreamInOneChunk() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Self.sample) == Self.sampleEvents)
        #expect(parser.reconnectionTime == 2500)
    }

    @Test func everySplitOfTheSampleGivesTheSameEvents() throws {
        let bytes = Self.sample
        for first in 0...bytes.count {
            for second in first...bytes.count {
                var parser = ServerSentEventParser()
                var events = try parser.parse(bytes[..<first])
                events += try parser.parse(bytes[first..<second])
                events += try parser.parse(bytes[second...])
                #expect(events == Self.sampleEvents, "split at \(first) and \(second)")
                #expect(parser.reconnectionTime == 2500)
                if events != Self.sampleEvents { return }
            }
        }
    }

    @Test func byteAtATimeGivesTheSameEvents() throws {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for byte in Self.sample { events += try parser.parse(CollectionOfOne(byte)) }
        #expect(events == Self.sampleEvents)
    }
}
