import Foundation
import RideBuddy
import RiderKit

// ride-buddy EMAIL QUERY — the password is read from standard input, never the command line.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: ride-buddy EMAIL QUERY  (password on standard input)\n".utf8))
    exit(2)
}
do {
    let finder = BuddyFinder(rider: try RiderKit.live(configuration: .load()))
    print(try await finder.signIn(email: arguments[0], password: readLine() ?? ""))
    for buddy in try await finder.buddies(matching: arguments[1]) { print(buddy) }
} catch {
    FileHandle.standardError.write(Data((BuddyFinder.message(for: error) + "\n").utf8))
    exit(1)
}
