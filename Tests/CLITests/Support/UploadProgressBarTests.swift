import Foundation
@testable import RiderCLI
import RiderKit
import Testing

@Suite("CLI UploadProgressBar")
struct UploadProgressBarTests {
    private let total = 4_404_019  // just under 4.2 MiB: sizes are rounded down

    @Test("the bar fills with the bytes sent, the percentage and sizes beside it", arguments: [
        (0, "Uploading me.jpg [....................]   0%  0 bytes of 4.1 MiB"),
        (2_202_009, "Uploading me.jpg [#########...........]  49%  2 MiB of 4.1 MiB"),
        (4_404_019, "Uploading me.jpg [####################] 100%  4.1 MiB of 4.1 MiB; waiting for the server..."),
    ])
    func rendering(sent: Int, expected: String) {
        #expect(UploadProgressBar.render("Uploading me.jpg", UploadProgress(sentBytes: sent, totalBytes: total)) == expected)
    }

    @Test("100 % only when every byte is out: a byte short still reads 99 %")
    func neverEarlyFull() {
        let line = UploadProgressBar.render("Uploading", UploadProgress(sentBytes: total - 1, totalBytes: total))
        #expect(line.contains(" 99%"))
        #expect(line.contains(".]"))
    }

    @Test("no bar for --json, a small file, or a standard error that is not a terminal")
    func offWhenItCannotHelp() {
        #expect(UploadProgressBar("Uploading", byteCount: 10 << 20, json: true).observer == nil)
        #expect(UploadProgressBar("Uploading", byteCount: 1024, json: false).observer == nil)
        // Under `swift test` standard error is a pipe or a file.
        #expect(UploadProgressBar("Uploading", byteCount: 10 << 20, json: false).observer == nil)
    }
}
