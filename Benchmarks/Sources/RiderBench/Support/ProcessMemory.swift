import Foundation

/// The process's own memory figures, from the kernel.
enum ProcessMemory {
    /// Highest resident set size so far (`getrusage`; Linux reports kilobytes).
    static var peakResidentBytes: Int {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss) * 1_024
    }

    /// Resident set size now (`/proc/self/statm`, in pages).
    static var residentBytes: Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
