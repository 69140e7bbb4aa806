import Foundation
import Report
import Scenarios
import Sim

// `make bench`: one line per benchmark, `bench <name> <value> <unit>`. Each figure is the
// median of several repetitions in this one process, so a noisy neighbour moves it less.

/// Seconds of wall time `body` takes.
/// Whether to print each repetition's wall, user and system time and page faults to stderr
/// (`KEYSIM_BENCH_VERBOSE=1`): the split tells CPU work from the kernel's page-fault work.
let verbose = ProcessInfo.processInfo.environment["KEYSIM_BENCH_VERBOSE"] == "1"
#if os(Linux)
let rusageSelf = RUSAGE_SELF.rawValue
#else
let rusageSelf = RUSAGE_SELF
#endif

func seconds(_ body: () -> Void) -> Double {
    var before = rusage()
    if verbose { getrusage(rusageSelf, &before) }
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    if verbose {
        var after = rusage()
        getrusage(rusageSelf, &after)
        func cpu(_ a: timeval, _ b: timeval) -> Double { Double(b.tv_sec - a.tv_sec) + Double(b.tv_usec - a.tv_usec) / 1e6 }
        FileHandle.standardError.write(Data(String(format: "  wall %.3f s  user %.3f s  sys %.3f s  faults %d\n", wall,
            cpu(before.ru_utime, after.ru_utime), cpu(before.ru_stime, after.ru_stime), after.ru_minflt - before.ru_minflt).utf8))
    }
    return wall
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Benchmarks named on the command line, or all of them.
let selected = Set(CommandLine.arguments.dropFirst())

// The child that `fleet_day_10k_rss_mb` measures runs the day's fleet alone and exits.
if CommandLine.arguments.dropFirst().first == "--fleet-day-child" {
    runFleetDay()
    exit(0)
}
// `--fleet-profile USERS`: the busy hour's fleet once, with USERS users, for a profiler
// (valgrind --tool=callgrind).
if CommandLine.arguments.dropFirst().first == "--fleet-profile" {
    runFleetProfile(users: Int(CommandLine.arguments[2])!)
    exit(0)
}

/// Runs a benchmark unless others were selected, and prints its line.
func report(_ name: String, _ value: @autoclosure () throws -> Double, _ unit: String) rethrows {
    guard selected.isEmpty || selected.contains(name) else { return }
    print("bench \(name) \(Int(try value().rounded())) \(unit)")
}

/// The hold model: 1,000 pending timers; pop the earliest, schedule a new one at a random
/// later time. Measures the event queue and the engine clock together.
func engineEventsPerSecond() -> Double {
    let pending = 1_000
    let events = 10_000_000
    var rates: [Double] = []
    for repetition in 0..<5 {
        var engine = Engine<Int>()
        var rng = RandomStream(seed: 1, replication: repetition, name: "bench.engine")
        for i in 0..<pending { engine.schedule(i, at: SimTime(nanoseconds: Int64(rng.nextUInt64() % 1_000_000))) }
        var checksum = 0
        let elapsed = seconds {
            for _ in 0..<events {
                let event = engine.next()!
                checksum &+= event
                engine.schedule(event, after: SimDuration(nanoseconds: Int64(rng.nextUInt64() % 1_000_000) + 1))
            }
        }
        precondition(checksum != 0 && engine.pendingCount == pending)
        rates.append(Double(events) / elapsed)
    }
    return median(rates)
}


/// The full keyboard model (threads, suggestions, checker, debounce, network, cloud,
/// underlines, typing quality) with every observation recorded, replaying a synthetic
/// typist: keys/s, the median of three repetitions. Each repetition is a fresh simulation
/// and buffer. The first writes its records to fresh memory, as the first replication in a
/// process does; the others take the record blocks the one before left in the bench's
/// `RecordArena`, as work after it does, and share its `SimulationCaches`, as a job's runs do. `KEYSIM_BENCH_VERBOSE=1` shows each repetition's time and page faults.
func keyboardKeysPerSecond(_ workload: KeyboardWorkload = KeyboardWorkload()) -> Double {
    median((0..<3).map { workload.keysPerSecond(repetition: $0) })
}

/// The keyboard line's typing and keyboard, built once; each repetition replays it afresh.
struct KeyboardWorkload {
    let events: [TraceEvent]
    let header: TraceHeader
    let keyboard: KeyboardConfig
    let arena = RecordArena()
    let caches = SimulationCaches()

    init() {
        let words = ["the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "and", "runs", "away"]
        var events: [TraceEvent] = []
        var intended: [String] = []
        var t = 0.0
        var rng = RandomStream(seed: 5, replication: 0, name: "bench.typist")
        while events.count < 200_000 {
            let word = words[rng.nextInt(below: words.count)]
            intended.append(word)
            // One word in twenty carries an uncorrected typo, so the checkers have work.
            let typed = rng.nextInt(below: 20) == 0 ? String(word.reversed()) : word
            for character in typed + (rng.nextInt(below: 10) == 0 ? ". " : " ") {
                t += 80 + 200 * rng.nextDouble()
                events.append(TraceEvent(time: SimTime(milliseconds: t), kind: .key(text: String(character), touchUp: nil, point: nil)))
            }
        }
        self.events = events
        header = TraceHeader(intendedText: intended.joined(separator: " "))
        // The bundled default scenario's keyboard: the seed's numbers and the suggestion bar's
        // dictionary, so that typing quality is measured too.
        var keyboard = benchScenario(replications: 1).keyboard
        precondition(keyboard.typing.dictionary != nil, "the default scenario names a dictionary")
        // The per-key path, in one field of 200,000 characters: no chip is accepted, since a fix
        // rewrites the field (O(field), cheap in a message, not in a text this long).
        keyboard.underlines.acceptanceRate = 0
        self.keyboard = keyboard
    }

    /// One replay, keys per second of wall time.
    func keysPerSecond(repetition: Int) -> Double {
        var source = ArrayTraceSource(events)
        var sink = ObservationBuffer(arena: arena)
        var simulation = KeyboardSimulation(config: keyboard, seed: 1, replication: repetition, header: header, caches: caches)
        var summary: ReplicationSummary?
        let elapsed = seconds { summary = try? simulation.run(&source, into: &sink) }
        precondition(summary?.edits == events.count && sink.keys.count == events.count)
        return Double(events.count) / elapsed
    }
}



/// Writes a typing trace of `events` events to `path` (.jsonl.zst): keys with touch points
/// and touch-up times, a backspace now and then, intervals of 50–400 ms.
func writeBenchTrace(path: String, events: Int, compressionLevel: Int) throws {
    let writer = try TraceFileWriter(path: path, header: TraceHeader(name: "bench", source: "KeysimBench"),
                                     compressionLevel: compressionLevel)
    var rng = RandomStream(seed: 1, replication: 0, name: "bench.trace")
    let letters = Array("etaoinshrdlucmfwypvbgkjqxz     ").map(String.init)
    var time: Int64 = 0
    for _ in 0..<events {
        time += 50_000_000 + Int64(rng.nextInt(below: 350_000)) * 1_000
        let up = SimTime(nanoseconds: time + 60_000_000 + Int64(rng.nextInt(below: 60_000)) * 1_000)
        let point = TouchPoint(x: Double(rng.nextInt(below: 3300)) / 10, y: Double(rng.nextInt(below: 1620)) / 10)
        let kind: TraceEvent.Kind = rng.nextInt(below: 25) == 0
            ? .backspace(touchUp: up, point: point)
            : .key(text: letters[rng.nextInt(below: letters.count)], touchUp: up, point: point)
        try writer.write(TraceEvent(time: SimTime(nanoseconds: time), kind: kind))
    }
    try writer.commit()
}

/// Reading and validating a .jsonl.zst trace of 2 million typing events on one core:
/// zstd decompression, line splitting, JSON parsing, event decoding and the validator's
/// checks, in events per second of the thread's CPU time (so that other processes on a
/// shared machine do not count; the file is read once before, so the disk does not either).
func traceReadEventsPerSecond() throws -> Double {
    func threadCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("keysim-bench-\(getpid()).jsonl.zst").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let events = 2_000_000
    try writeBenchTrace(path: path, events: events, compressionLevel: 3)
    var rates: [Double] = []
    for _ in 0..<5 {
        let start = threadCPUSeconds()
        let result: TraceValidation? = TraceValidator.validate(path: path)
        let elapsed = threadCPUSeconds() - start
        precondition(result!.isValid && result!.eventCount == events, "the bench trace must be valid")
        rates.append(Double(events) / elapsed)
    }
    return median(rates)
}

/// The keysim binary beside the bench, if built (`swift build -c release --product keysim`).
func keysimBinary(for benchmark: String) -> String? {
    let keysim = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("keysim").path
    guard FileManager.default.isExecutableFile(atPath: keysim) else {
        FileHandle.standardError.write(Data("bench: no keysim beside the bench binary; \(benchmark) skipped\n".utf8))
        return nil
    }
    return keysim
}

/// The largest resident memory, in MiB, of `keysim arguments…` run to its end (standard
/// output and its progress lines to /dev/null); nil when it fails.
///
/// The figure is the child's VmHWM from /proc, read every few milliseconds until it exits:
/// getrusage's ru_maxrss cannot be used, because Linux carries the parent's peak into a
/// spawned child's ru_maxrss.
func peakResidentMiB(_ keysim: String, _ arguments: [String]) -> Double? {
    var pid: pid_t = 0
    var argv: [UnsafeMutablePointer<CChar>?] = ([keysim] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    guard posix_spawn(&pid, keysim, &actions, nil, &argv, environ) == 0 else { return nil }
    var peakKiB = 0
    var status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
        // "VmHWM:    38912 kB": the peak resident set of the process's own address space.
        if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
            peakKiB = max(peakKiB, kib)
        }
        usleep(2_000)
    }
    guard status == 0 else {
        FileHandle.standardError.write(Data("bench: keysim \(arguments.joined(separator: " ")) failed (status \(status))\n".utf8))
        return nil
    }
    return Double(peakKiB) / 1024
}

/// The largest resident memory of `keysim trace stats` replaying a 10-million-event
/// .jsonl.zst trace (every event decoded, the text rebuilt, the statistics gathered), in
/// MiB. `nil` when the keysim binary is not beside the bench.
func traceReplayMaxResidentMiB() throws -> Double? {
    guard let keysim = keysimBinary(for: "trace_replay_rss_mb") else { return nil }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("keysim-bench-10m-\(getpid()).jsonl.zst").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try writeBenchTrace(path: path, events: 10_000_000, compressionLevel: 1)
    return peakResidentMiB(keysim, ["trace", "stats", path])
}


// The benchmarks, in the order `make bench` prints them.
report("engine_events_per_s", engineEventsPerSecond(), "events/s")

// MARK: - Report writing and parallel replications

/// The bundled default scenario, loaded from the package root `make bench` runs in.
func benchScenario(replications: Int) -> Scenario {
    do {
        var scenario = try ScenarioLoader.load(path: "scenarios/default.json5")
        scenario.replications = replications
        return scenario
    } catch {
        fatalError("bench: run from the package root: \(error)")
    }
}

/// Rows per second `ReportStore.write` puts into a fresh report file: every row of 20
/// replications of the default scenario (runs, keys, requests, tasks, violations), in one
/// transaction, as `keysim run` writes them.
func reportRowsPerSecond() -> Double {
    let scenario = benchScenario(replications: 20)
    let items = ScenarioRunner.workItems(replications: scenario.replications, traceCount: scenario.traces.count)
    let results = try! ScenarioRunner.run(scenario, items: items, jobs: ProcessInfo.processInfo.activeProcessorCount)
    let batch = BatchInfo(command: "bench", scenario: scenario, scenarioHash: "bench", tracesHash: "bench", wallSeconds: 0)
    let folder = NSTemporaryDirectory() + "keysim-bench-\(ProcessInfo.processInfo.processIdentifier)"
    try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var rates: [Double] = []
    // Nine writes: the file system of a shared machine stalls now and then, and the median
    // of nine leaves two stalls on either side out.
    for repetition in 0..<9 {
        let path = folder + "/report-\(repetition).sqlite"
        let store = try! ReportStore(path: path)
        let elapsed = seconds { _ = try! store.write(batch, results: results) }
        let rows = try! ReportInspector.rowCount(store.database)
        rates.append(Double(rows) / elapsed)
    }
    return median(rates)
}

/// Wall time of 20 replications of the default scenario on one thread over the same on two,
/// through the runner `keysim run --jobs N` uses (results handed back in order; the report
/// writing, which is serial by design, left out): what `--jobs 2` buys on two cores. Each
/// repetition times one thread then two, back to back, and the figure is the median of the
/// ratios, so that load from other processes that comes and goes cancels out.
func jobs2Speedup() -> Double {
    let scenario = benchScenario(replications: 20)
    let items = ScenarioRunner.workItems(replications: scenario.replications, traceCount: scenario.traces.count)
    func run(threads: Int) -> Double {
        // Each trace hashed once a job, as `keysim run` does (`TraceCache`).
        let traceCache = TraceCache()
        return seconds {
            var events = 0
            try! OrderedParallel.run(count: items.count, threads: threads, window: 4 * threads,
                                     work: { try ScenarioRunner.runOne(scenario, item: items[$0], traceCache: traceCache) },
                                     consume: { _, result in events += result.summary.eventsProcessed })
            precondition(events > 0)
        }
    }
    _ = run(threads: 2)
    var ratios: [Double] = []
    for _ in 0..<9 {
        let one = run(threads: 1)
        ratios.append(one / run(threads: 2))
    }
    return median(ratios)
}


report("keyboard_keys_per_s", keyboardKeysPerSecond(), "keys/s")
do {
    try report("trace_read_events_per_s", traceReadEventsPerSecond(), "events/s")
    if selected.isEmpty || selected.contains("trace_replay_rss_mb"), let residentMiB = try traceReplayMaxResidentMiB() {
        report("trace_replay_rss_mb", residentMiB, "MB")
    }
} catch {
    FileHandle.standardError.write(Data("bench: \(error)\n".utf8))
    exit(1)
}
report("report_rows_per_s", reportRowsPerSecond(), "rows/s")
runBenchmarks()
runFleetBenchmarks()
if selected.isEmpty || selected.contains("jobs2_speedup") {
    print("bench jobs2_speedup \(TextTable.fixed(jobs2Speedup(), 2)) x")
}
