import Foundation
import Report
import Scenarios
import Sim

// `make bench`: one line per benchmark, `bench <name> <value> <unit>`. Each figure is the
// median of several repetitions in this one process, so a noisy neighbour moves it less.

/// Seconds of wall time `body` takes.
func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func report(_ name: String, _ value: Double, _ unit: String) {
    print("bench \(name) \(Int(value.rounded())) \(unit)")
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
    for repetition in 0..<5 {
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
        seconds {
            var events = 0
            try! OrderedParallel.run(count: items.count, threads: threads, window: 4 * threads,
                                     work: { try ScenarioRunner.runOne(scenario, item: items[$0]) },
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

report("report_rows_per_s", reportRowsPerSecond(), "rows/s")
let speedup = jobs2Speedup()
print("bench jobs2_speedup \(TextTable.fixed(speedup, 2)) x")
