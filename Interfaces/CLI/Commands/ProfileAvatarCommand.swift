import ArgumentParser
import Foundation
import RiderKit

/// `rider profile avatar PATH`: makes a JPEG or PNG your avatar.
struct ProfileAvatarCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "avatar",
        abstract: "Upload a JPEG or PNG picture (at most 5 MiB) as your avatar.",
        discussion: """
            The picture's content decides its type, not its name. An empty file, a file over \
            5 MiB or one that is neither JPEG nor PNG exits with 9 before anything is sent. While \
            a file of 256 KiB or more uploads, a progress bar (percentage and bytes sent) shows \
            on standard error when it is a terminal (never with --json); once every byte is sent \
            it says it is waiting for the server. Ctrl-C then says whether the new picture may \
            have reached the server (`rider profile show` tells).

            Example:
              rider profile avatar ~/Pictures/me.jpg
            """
    )

    @Argument(help: ArgumentHelp("The picture file (JPEG or PNG).", valueName: "path"),
              completion: .file(extensions: ["jpg", "jpeg", "png", "JPG", "JPEG", "PNG"]))
    var path: String

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func run() async throws {
        let context = try CommandContext(global)
        let profile = context.rider.profile
        let data = try AvatarFile.contents(of: path, checkSize: profile.checkAvatarSize,
                                           maximumByteCount: profile.avatarUpload.maximumByteCount)
        let filename = URL(fileURLWithPath: path).lastPathComponent
        let bar = UploadProgressBar("Uploading \(filename)", byteCount: data.count, json: global.json)
        let rider: Rider
        do {
            let observer = bar.observer
            rider = try await Interruption.cancelling(saying: { bar.interruptedUpload }) {
                try await profile.uploadAvatar(data, filename: filename, progress: observer)
            }
            bar.stop()
        } catch {
            // Erased before the error is printed on the same line.
            bar.stop()
            throw error
        }
        let output = RiderOutput(rider)
        try context.print(json: output, lines: ["Avatar uploaded."] + output.lines)
    }
}
