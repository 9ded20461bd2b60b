import Foundation
import RiderDomain

/// Lists every user of the server by id, a page at a time, and remembers them in the cache.
///
/// ``callAsFunction(page:)`` fetches one page; ``all(pageSize:)`` walks every page lazily, one
/// request per page as the caller asks for it, so a listing of any length runs in the memory
/// of one page and stops as soon as the caller stops iterating or its task is cancelled.
public struct ListUsers: Sendable {
    let api: APIClient
    let cache: any UserCache
    let clock: any Clock

    package init(api: APIClient, cache: any UserCache, clock: any Clock) {
        self.api = api
        self.cache = cache
        self.clock = clock
    }

    /// One page of users, ordered by id; its users are written to the cache in one batch.
    /// - Throws: `RiderError.notSignedIn`, `RiderError.sessionExpired`, network errors
    ///   (after the endpoint's retries), `RiderError.storage(_:)`.
    public func callAsFunction(page: PageRequest) async throws -> UserPage {
        let result = try await api.send(API.listUsers(page: page))
        try await cache.store(result.users, at: clock.now)
        return result
    }

    /// Every page from the first, fetched lazily as the sequence is iterated.
    /// - Parameter pageSize: users per request, 1 to 100.
    /// - Throws: `RiderError.invalidInput(_:)` for a page size out of range.
    public func all(pageSize: Int = PageRequest.maximumLimit) throws -> UserPages {
        UserPages(list: self, first: try PageRequest(page: 1, limit: pageSize))
    }
}

/// The pages of ``ListUsers/all(pageSize:)``: each `next()` sends one request, until the server
/// says there is no next page. Iterating again starts over from the first page.
public struct UserPages: AsyncSequence, Sendable {
    public typealias Element = UserPage

    let list: ListUsers
    let first: PageRequest

    public func makeAsyncIterator() -> Iterator {
        Iterator(list: list, next: first)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let list: ListUsers
        var next: PageRequest?

        /// - Throws: as ``ListUsers/callAsFunction(page:)``, and `CancellationError` when the
        ///   task was cancelled before the request went out.
        public mutating func next() async throws -> UserPage? {
            guard let request = next else { return nil }
            try Task.checkCancellation()
            let page = try await list(page: request)
            // A server that says "more" but sends an empty page would loop forever: stop there.
            if page.hasNext, !page.users.isEmpty {
                self.next = try? PageRequest(page: request.page + 1, limit: request.limit)
            } else {
                self.next = nil
            }
            return page
        }
    }
}
