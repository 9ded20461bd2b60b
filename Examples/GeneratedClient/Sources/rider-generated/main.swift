import Foundation
import ProfileTool
import RiderKit

// Shows the signed-in rider through the generated client, with the session `rider login` stored
// (the same configuration as `rider`: RIDER_BASE_URL, the vault, …).
//
//   rider login --email demo@example.com && swift run rider-generated
do {
    let rider = try RiderKit.live(configuration: .load())
    let profiles = ProfileClient(rider: rider)
    let me = try await profiles.me()
    let profile = try await profiles.profile()
    print("\(me.display_name) <\(me.email)>: \(profile.rider.rider_type), profile version \(profile.entityTag)")
    await rider.close()
} catch {
    FileHandle.standardError.write(Data("rider-generated: \(error)\n".utf8))
    exit(1)
}
