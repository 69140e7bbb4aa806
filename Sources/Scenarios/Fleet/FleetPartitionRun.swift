import Sim

/// One partition of a fleet: its users' sessions through one `FleetSimulation` with its own
/// shared backend, binned into minutes of fleet time.
struct FleetPartitionRun {
    let scenario: Scenario
    let fleet: FleetConfig
    let planner: FleetPlanner
    let partition: Int
    let users: Range<Int>
    let tracker: FleetProgressTracker
    /// Helper threads that synthesise sessions' typing ahead of the simulation and step
    /// sessions that run ahead of the fleet (`FleetHelpers`; 0: the simulation's thread does
    /// it all). The result is the same.
    var prepareThreads = 0

    /// What a partition produced.
    struct Outcome: Sendable {
        var minutes: [FleetMinute]
        var sessions: Int
        var sessionsOpenMax: Int
    }

    /// Sessions closed between progress reports.
    static let progressEvery = 256
    /// How many sessions past the last opened one the helpers may synthesise:
    /// enough to ride out a burst of starts, few enough that memory still follows the
    /// sessions open (a prepared session holds its events, some kilobytes).
    static let prepareWindow = 64

    func run() throws -> Outcome {
        let backendConfig = fleet.backend(ofPartition: partition)
        let plans = planner.plans(ofUsers: users)
        tracker.add(planned: plans.count)
        let bins = FleetMinuteBins(spanMinutes: fleet.day.minutes, replicas: backendConfig.replicas)
        let caches = SimulationCaches()
        let keyboard = scenario.keyboard
        let planner = planner
        let tracker = tracker
        var closedSinceReport = 0
        // Sessions open in plan order (a session's rank is its place in `plans`), so the
        // helpers' preparations are numbered by rank.
        let helpers = prepareThreads == 0 ? nil : FleetHelpers(threads: prepareThreads, count: plans.count, window: Self.prepareWindow) {
            [planner, plans] rank in try planner.prepare(plans[rank])
        }
        defer { helpers?.finish() }
        // A lane of minutes per helper, for the sessions it steps ahead.
        let lanes = [bins] + (0..<(helpers?.threads ?? 0)).map { _ in FleetMinuteBins(spanMinutes: 0, replicas: 0) }
        var fleetSimulation = FleetSimulation<FleetPlanner.Source, FleetMinuteSink>(
            backend: SharedBackend(config: backendConfig), plans: plans,
            open: { plan, rank in
                bins.update(at: plan.start.nanoseconds) { $0.sessionsStarted += 1 }
                let session = try helpers?.prepared(rank) ?? planner.prepare(plan)
                return try planner.open(session, keyboard: keyboard, caches: caches,
                                        sink: FleetMinuteSink(bins: bins, startNanos: plan.start.nanoseconds))
            },
            close: { plan, summary, _ in
                bins.addOpen(from: plan.start.nanoseconds, to: plan.start.nanoseconds + summary.endTime.nanoseconds)
                closedSinceReport += 1
                if closedSinceReport == Self.progressEvery {
                    tracker.add(done: closedSinceReport)
                    closedSinceReport = 0
                }
            })
        fleetSimulation.helpers = helpers
        if helpers != nil { fleetSimulation.moveSink = { sink, lane in sink.bins = lanes[lane] } }
        // The backend's meter is read at every minute boundary the fleet passes (its time is
        // then no later than the boundary), and the minute gets the difference.
        var lastMeter = SharedBackendMeter()
        func readBoundary(_ boundary: Int, _ backend: SharedBackend) {
            let meter = backend.meter(at: SimTime(nanoseconds: Int64(boundary) * FleetMinute.lengthNanos))
            bins.update(at: Int64(boundary - 1) * FleetMinute.lengthNanos) { $0.backend += meter - lastMeter }
            lastMeter = meter
        }
        try fleetSimulation.run(boundaryNanos: FleetMinute.lengthNanos, atBoundary: readBoundary)
        for lane in lanes.dropFirst() { bins.absorb(lane) }
        // The rest: up to the end of the last minute anything happened in (or of the span).
        let lastRead = bins.index(fleetSimulation.lastStepTime.nanoseconds)
        for boundary in stride(from: lastRead + 1, through: bins.minutes.count, by: 1) {
            readBoundary(boundary, fleetSimulation.backend)
        }
        tracker.add(done: closedSinceReport, partitionsDone: 1)
        return Outcome(minutes: bins.minutes, sessions: plans.count, sessionsOpenMax: fleetSimulation.sessionsOpenMax)
    }
}
