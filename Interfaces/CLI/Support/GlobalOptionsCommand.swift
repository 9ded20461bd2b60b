import ArgumentParser

/// A command that carries the global options, so the entry point knows how to report its errors.
protocol GlobalOptionsCommand: AsyncParsableCommand {
    var global: GlobalOptions { get }
}
