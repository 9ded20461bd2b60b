/// Every stdout and stderr of a sandbox's runs.
actor Transcript {
    private(set) var outputs: [String] = []

    func record(_ run: RiderRun) {
        outputs += [run.stdout, run.stderr]
    }
}
