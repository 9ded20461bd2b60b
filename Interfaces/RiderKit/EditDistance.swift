/// How many single-character edits turn one word into another — Damerau–Levenshtein (optimal
/// string alignment), where a swap of two neighbouring letters is one edit — for "did you mean"
/// suggestions of settings and commands.
package enum EditDistance {
    /// The edits from `a` to `b`.
    package static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// The one of `names` nearest `word` within two edits, if any.
    package static func nearest(to word: String, among names: [String]) -> String? {
        names.map { ($0, between(word.lowercased(), $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }
}
