import RiderKit

let rider = try RiderKit.live(configuration: .load())  // RIDER_BASE_URL or ~/.config/rider/config.json
let session = try await rider.login(Credentials(email: "demo@example.com", password: "rider-demo"))
print("Signed in as \(session.userID)")
let page = try await rider.searchUsers("jo", page: PageRequest(limit: 5))
for user in page.users { print("\(user.displayName) <\(user.email)>") }
let profile = try await rider.profile.update(RiderPatch(description: .set("Rides every Sunday")))
print("Profile saved as version \(profile.entityTag?.rawValue ?? "?")")
try await rider.logout()
