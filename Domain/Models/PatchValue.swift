import Foundation

/// One field of a partial update: leave it, set it, or remove it.
///
/// Three states because "no change" and "clear the field" are different requests
/// (JSON merge patch: absent vs `null`).
public enum PatchValue<Value: Sendable & Hashable>: Sendable, Hashable {
    case unchanged
    case set(Value)
    case remove
}
