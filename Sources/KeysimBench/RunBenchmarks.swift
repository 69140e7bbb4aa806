import Foundation
import Report
import Scenarios
import Sim

// `keysim run` end to end, report included, through the code path of the command
// (`Job` → `JobRunner.run`, the default detail, every core).

/// A fresh folder for one benchmark's reports, removed by the caller.
func benchFolder(_ name: String) -> String {
    let folder = NSTemporaryDirectory() + "keysim-bench-\(name)-\(ProcessInfo.processInfo.processIdentifier)"
    try? FileManager.default.removeItem(atPath: folder)
    try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

/// Runs `scenario` as `keysim run` does, into a new report at `path`, on every core.
/// - Returns: wall seconds and the keys replayed.
func runLikeTheCLI(_ scenario: Scenario, reportPath path: String) -> (seconds: Double, keys: Int) {
    let job = try! Job(command: "run", batches: [JobBatch(label: "", scenario: scenario)], seed: scenario.seed,
                       replications: scenario.replications)
    var keys = 0
    let elapsed = seconds {
        let outcome = try! JobRunner.run(job, shard: .whole, threads: ProcessInfo.processInfo.activeProcessorCount,
                                         reportPath: path, busyTimeoutMs: 1000)
        keys = outcome.summaries[0]!.counts.keys
    }
    return (elapsed, keys)
}

/// `run_keys_per_s` and `report_bytes_per_key`: 200 replications of the default scenario,
/// the median of three runs, and the report's bytes per key replayed (WAL folded back).
func runFigures() -> (keysPerSecond: Double, bytesPerKey: Double) {
    let folder = benchFolder("run")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let scenario = benchScenario(replications: 200)
    var rates: [Double] = []
    var bytesPerKey = 0.0
    for repetition in 0..<3 {
        let path = folder + "/run-\(repetition).sqlite"
        let (elapsed, keys) = runLikeTheCLI(scenario, reportPath: path)
        rates.append(Double(keys) / elapsed)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        bytesPerKey = Double(bytes) / Double(keys)
    }
    return (median(rates), bytesPerKey)
}

/// `population_keys_per_s`: 1,000 different synthetic traces — the default trace's text
/// typed by typists of 1,000 seeds and speeds — one replication each, in one report.
func populationKeysPerSecond() -> Double {
    let folder = benchFolder("population")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var scenario = benchScenario(replications: 1)
    let text = try! TraceFileReader(path: scenario.traces[0]).header.intendedText ?? ""
    precondition(!text.isEmpty, "the default trace carries its intended text")
    let script = SynthScript(segments: [.typed(text)])
    scenario.traces = (0..<1_000).map { index in
        let path = folder + "/typist-\(index).jsonl"
        let typist = TypistModel(options: TypistModel.Options(wordsPerMinute: 30 + Double(index % 50)))
        let writer = try! TraceFileWriter(path: path, header: TraceHeader(name: "typist-\(index)", intendedText: text))
        try! typist.synthesize(script, seed: UInt64(index)) { (event: TraceEvent) throws(InputError) in try writer.write(event) }
        try! writer.commit()
        return path
    }
    let (elapsed, keys) = runLikeTheCLI(scenario, reportPath: folder + "/population.sqlite")
    return Double(keys) / elapsed
}

/// Runs the end-to-end benchmarks that are selected, printing their lines.
func runBenchmarks() {
    let names = ["run_keys_per_s", "report_bytes_per_key"]
    if selected.isEmpty || names.contains(where: selected.contains) {
        let figures = runFigures()
        report("run_keys_per_s", figures.keysPerSecond, "keys/s")
        report("report_bytes_per_key", figures.bytesPerKey, "bytes/key")
    }
    for replications in [200, 2_000] {
        let name = "run_rss_mb_\(replications)"
        guard selected.isEmpty || selected.contains(name), let keysim = keysimBinary(for: name) else { continue }
        let folder = benchFolder(name)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        if let peak = peakResidentMiB(keysim, ["run", "scenarios/default.json5", "--replications", "\(replications)",
                                               "--db", folder + "/run.sqlite"]) {
            report(name, peak, "MB")
        }
    }
    report("population_keys_per_s", populationKeysPerSecond(), "keys/s")
}
