/// The reference server's demo account.
enum Demo {
    static let email = "demo@example.com"
    static let password = "rider-demo"
    static let userID = "u_000000"
}
