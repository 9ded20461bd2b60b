/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast and the same on every platform, which
/// `SystemRandomNumberGenerator` and `random()` are not. Seeds the users, never the tokens.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An element of `items`, chosen by the next number. `items` must not be empty.
    mutating func pick<T>(_ items: [T]) -> T {
        items[Int(next() % UInt64(items.count))]
    }

    /// A number in `0..<bound`; the modulo bias is irrelevant for test data.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
