import ArgumentParser
import RiderKit

/// `rider profile preferences [--newsletter on|off …]`: shows or changes your preferences.
struct ProfilePreferencesCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "preferences",
        abstract: "Show your notification and visibility settings, or change the ones you name.",
        discussion: """
            Settings you leave out stay as they are, and so do settings this version of rider \
            does not know (a newer server may have more).

            Examples:
              rider profile preferences
              rider profile preferences --newsletter off --profile-visibility members
            """
    )

    @Option(help: "Notify you when another rider invites you to a ride.")
    var rideInvitations: OnOffArgument?

    @Option(help: "Notify you when another rider sends you a message.")
    var messages: OnOffArgument?

    @Option(help: "Send you the community newsletter.")
    var newsletter: OnOffArgument?

    @Option(help: "Who may see your profile.")
    var profileVisibility: ProfileVisibilityArgument?

    @Option(help: "Show your base location to those who may see your profile.")
    var showBaseLocation: OnOffArgument?

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    private var changesSomething: Bool {
        rideInvitations != nil || messages != nil || newsletter != nil || profileVisibility != nil
            || showBaseLocation != nil
    }

    func run() async throws {
        let context = try CommandContext(global)
        guard changesSomething else {
            let output = PreferencesOutput(try await context.rider.profile.preferences())
            try context.print(json: output, lines: output.lines)
            return
        }
        let (rideInvitations, messages, newsletter) = (rideInvitations, messages, newsletter)
        let (profileVisibility, showBaseLocation) = (profileVisibility, showBaseLocation)
        let saved = try await context.rider.profile.updatePreferences { preferences in
            if let rideInvitations { preferences.notifications.rideInvitations = rideInvitations.isOn }
            if let messages { preferences.notifications.messages = messages.isOn }
            if let newsletter { preferences.notifications.newsletter = newsletter.isOn }
            if let profileVisibility { preferences.visibility.profile = profileVisibility.visibility }
            if let showBaseLocation { preferences.visibility.showBaseLocation = showBaseLocation.isOn }
        }
        let output = PreferencesOutput(saved)
        try context.print(json: output, lines: ["Preferences saved."] + output.lines)
    }
}
