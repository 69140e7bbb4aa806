extension KeyboardIO {
    /// Where each kind of work runs, at what priority and at what cost, by `KeyboardWork.code`:
    /// a function of the keyboard's threads and work only, so the replications of a job (a
    /// fleet's sessions) share one (`SimulationCaches.workTables(for:)`) rather than each
    /// looking every kind up again.
    struct WorkTables: Sendable, Equatable {
        /// The thread of each kind, its index in `config.threads`.
        let threadOf: [Int]
        let priorities: [Int]
        let costDistributions: [Distribution]

        /// The tables of `config`. Traps when a kind of work names a thread that is not there.
        init(config: __shared KeyboardConfig) {
            let slots = KeyboardWork.allCases.count + 1
            var threadOf = Array(repeating: 0, count: slots)
            var workConfigs = Array(repeating: KeyboardWork.defaults[.key]!, count: slots)
            for kind in KeyboardWork.allCases {
                let work = config.config(for: kind)
                guard let index = config.threads.firstIndex(where: { $0.name == work.thread }) else {
                    preconditionFailure("work '\(kind.rawValue)' runs on unknown thread '\(work.thread)'")
                }
                threadOf[Int(kind.code)] = index
                workConfigs[Int(kind.code)] = work
            }
            self.threadOf = threadOf
            priorities = workConfigs.map(\.priority)
            costDistributions = workConfigs.map(\.cost)
        }
    }
}
