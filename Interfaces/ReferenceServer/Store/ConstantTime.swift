/// Comparison whose duration does not depend on where two secrets first differ.
enum ConstantTime {
    /// Whether `a` and `b` hold the same UTF-8 bytes. Runs over the longer input either way,
    /// so only the lengths leak, never a matching prefix.
    static func equals(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8)
        let right = Array(b.utf8)
        var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
        difference |= left.count == right.count ? 0 : 1
        for position in 0..<max(left.count, right.count) {
            let x = position < left.count ? left[position] : 0
            let y = position < right.count ? right[position] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
