import ArgumentParser
import Foundation
import RiderKit

/// `rider profile update`: changes the named fields of your rider profile.
struct ProfileUpdateCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change fields of your rider profile; fields you leave out stay as they are.",
        discussion: """
            The edit is conditional on the version of the profile it is based on (the current \
            one, or --if-match): if the profile changed elsewhere in between, nothing is \
            overwritten, the command exits with 6 and shows the current values.

            Examples:
              rider profile update --display-name "Ana" --type mentor \\
                --description "Gravel on weekends"
              rider profile update --sport gravel --sport road --clear-avatar
            """
    )

    @Option(help: ArgumentHelp("The name other riders see (1 to 60 characters).", valueName: "name"))
    var displayName: String?

    @Option(name: .customLong("type"), help: "A mentor offers to ride with others; a learner looks for one.")
    var riderType: RiderTypeArgument?

    @Option(help: ArgumentHelp("A few words about how you ride (up to 500 characters).", valueName: "text"))
    var description: String?

    @Flag(help: "Remove the description.")
    var clearDescription = false

    @Option(help: ArgumentHelp("An http(s) URL of your picture.", valueName: "url"))
    var avatarURL: String?

    @Flag(help: "Remove the avatar.")
    var clearAvatar = false

    @Option(name: .customLong("sport"), help: ArgumentHelp(
        "A sport you ride; repeat for several. Replaces the whole list.", valueName: "sport"))
    var sports: [String] = []

    @Flag(help: "Remove every sport.")
    var clearSports = false

    @Option(help: ArgumentHelp("Only update if the profile is still at this version (from `rider profile show`).",
                               valueName: "version"))
    var ifMatch: String?

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func validate() throws {
        if description != nil && clearDescription {
            throw ValidationError("--description and --clear-description cannot be used together.")
        }
        if avatarURL != nil && clearAvatar {
            throw ValidationError("--avatar-url and --clear-avatar cannot be used together.")
        }
        if !sports.isEmpty && clearSports {
            throw ValidationError("--sport and --clear-sports cannot be used together.")
        }
        if let avatarURL, Self.webURL(avatarURL) == nil {
            throw ValidationError("--avatar-url must be an http or https URL, such as https://example.com/me.jpg.")
        }
        if try patch().isEmpty {
            throw ValidationError("Name at least one field to change, for example --description \"…\".")
        }
    }

    func run() async throws {
        let context = try CommandContext(global)
        let (patch, profile) = (try patch(), context.rider.profile)
        var base = ifMatch.map(EntityTag.init(rawValue:))
        if base == nil, !patch.isEmpty {
            // The current tag is read here rather than inside the update, so Ctrl-C can say truly
            // that nothing was sent yet.
            base = try await Interruption.cancelling(saying: "cancelled before the change was sent: your profile is "
                + "unchanged.") { try await profile.get().entityTag }
        }
        // Ctrl-C cannot call back a request already on its way: say the change may have been made.
        let updated = try await Interruption.cancelling(saying: Interruption.writeMayHaveHappened) { [base] in
            try await profile.update(patch, basedOn: base)
        }
        let output = RiderOutput(updated)
        try context.print(json: output, lines: ["Profile updated."] + output.lines)
    }

    private func patch() throws -> RiderPatch {
        var patch = RiderPatch(displayName: displayName, riderType: riderType?.riderType)
        if let description { patch.description = .set(description) }
        if clearDescription { patch.description = .remove }
        if let avatarURL {
            guard let url = Self.webURL(avatarURL) else { throw CLIError.usage("--avatar-url is not an http(s) URL.") }
            patch.avatarURL = .set(url)
        }
        if clearAvatar { patch.avatarURL = .remove }
        if !sports.isEmpty { patch.sports = sports }
        if clearSports { patch.sports = [] }
        return patch
    }

    private static func webURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false else { return nil }
        return url
    }
}
