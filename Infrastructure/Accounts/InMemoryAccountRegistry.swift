import Foundation
import RiderDomain

/// The accounts of one server for the life of the process only: beside ``InMemoryTokenVault``, and
/// for tests of the layers above.
package actor InMemoryAccountRegistry: AccountRegistry {
    package nonisolated let server: String
    private var list: AccountList
    private let key = "memory:\(UUID().uuidString)"

    /// - Parameter server: the API origin.
    package init(server: String) {
        self.server = server
        list = AccountList(server: server)
    }

    package func accounts() async throws -> [Account] { list.accounts }

    package func record(_ account: Account, activate: Bool) async throws {
        list.record(account, activate: activate)
        AccountChangeObservers.shared.publish(list.accounts, for: key)
    }

    package func activate(_ account: UserID) async throws {
        try list.activate(account)
        AccountChangeObservers.shared.publish(list.accounts, for: key)
    }

    @discardableResult
    package func remove(_ account: UserID) async throws -> Account? {
        let active = list.remove(account)
        AccountChangeObservers.shared.publish(list.accounts, for: key)
        return active
    }

    package func changes() async -> AsyncStream<AccountsChange> {
        AccountChangeObservers.shared.stream(for: key, current: list.accounts)
    }
}
