/// The sizes, from `--users N --searches N --lookups N`.
struct Options {
    var users = 100_000
    var searches = 500
    var lookups = 500

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            let value = iterator.next().flatMap(Int.init) ?? 0
            switch argument {
            case "--users": users = max(1, value)
            case "--searches": searches = max(1, value)
            case "--lookups": lookups = max(1, value)
            default: break
            }
        }
    }
}
