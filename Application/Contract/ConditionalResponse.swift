import Foundation
import RiderDomain

/// The answer to a conditional GET (`If-None-Match`, RFC 9110 §13.1.2).
package enum ConditionalResponse<Value: Sendable>: Sendable {
    /// The server sent a (new) representation, with its entity tag when it gave one.
    case modified(Value, entityTag: EntityTag?)
    /// `304 Not Modified`: the cached representation is still current.
    case notModified
}

extension ConditionalResponse: Equatable where Value: Equatable {}
