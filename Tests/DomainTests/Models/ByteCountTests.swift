import RiderDomain
import Testing

@Suite("ByteCount")
struct ByteCountTests {
    @Test("sizes read in binary units, rounded down to one decimal, without a trailing .0", arguments: [
        (0, "0 bytes"), (1, "1 byte"), (1023, "1023 bytes"), (1024, "1 KiB"), (1536, "1.5 KiB"),
        (300 * 1024, "300 KiB"), (1024 * 1024 - 1, "1023.9 KiB"), (5 * 1024 * 1024, "5 MiB"),
        (5 * 1024 * 1024 + 1, "5 MiB"), (4_404_019, "4.1 MiB"),
    ])
    func description(bytes: Int, text: String) {
        #expect(ByteCount(bytes).description == text)
    }
}
