import Foundation
@testable import Scenarios
import Sim
import XCTest

/// The written overlay loads: through `include` at the top and in a policy, replacing the
/// costs the scenario assumed; include errors name the included file; a scenario takes a
/// cost straight from a trace's measurements; the new distribution kinds load.
final class CalibrationOverlayTests: XCTestCase {
    private func samples(_ distribution: Distribution, _ n: Int, seed: UInt64) -> [Double] {
        var rng = RandomStream(seed: seed, replication: 0, name: "overlay-test")
        return (0..<n).map { _ in distribution.sample(&rng) }
    }

    private func makeRun() -> CalibrationRun {
        var lookup = MeasuredSeries(name: "Dictionary Lookup")
        lookup.samplesMs = samples(.lognormal(mu: log(4), sigma: 0.5), 400, seed: 3)
        lookup.sources = ["export.xml (instruments, \"Dictionary Lookup\", 400)"]
        var key = MeasuredSeries(name: "key")
        key.samplesMs = samples(.shifted(offset: 1, base: .gamma(shape: 2, scale: 0.6)), 400, seed: 4)
        var rtt = MeasuredSeries(name: "rtt")
        rtt.buckets = [CostBucket(lowerMs: 0, upperMs: 50, count: 10), CostBucket(lowerMs: 50, upperMs: 100, count: 60),
                       CostBucket(lowerMs: 100, upperMs: 400, count: 30)]
        var haptics = MeasuredSeries(name: "Haptics")
        haptics.samplesMs = [0.2, 0.3]
        var mapping = NameMapping()
        XCTAssertNil(mapping.add("Dictionary Lookup=lookup"))
        XCTAssertNil(mapping.add("rtt=network.roundTrip"))
        let readings = [CostReading(file: "export.xml", format: .instruments, series: [lookup, key, haptics]),
                        CostReading(file: "payload.json", format: .metricKit, series: [rtt])]
        return CalibrationRun(readings: readings, mapping: mapping, kind: nil)
    }

    func testTheOverlayLoadsThroughIncludeAndReplacesAssumedCosts() throws {
        let fixture = try ScenarioFixture()
        let run = makeRun()
        XCTAssertEqual(run.calibrations.map(\.target), [.work(.key), .work(.lookup), .networkRoundTrip])
        XCTAssertEqual(run.unmapped, [CalibrationRun.Unmapped(name: "Haptics", count: 2, files: ["export.xml"])])
        let overlay = CalibrationOverlay.text(run, command: "keysim calibrate export.xml payload.json --out costs.json5")
        XCTAssertTrue(overlay.contains("// Unmapped: \"Haptics\" (2 duration(s) in export.xml); map it with --map NAME=kind"), overlay)
        XCTAssertTrue(overlay.contains("// lookup: 400 individual duration(s) from export.xml (instruments, \"Dictionary Lookup\", 400)"), overlay)
        XCTAssertTrue(overlay.contains("// roundTrip") || overlay.contains("// network.roundTrip: 100 bucketed (interval-censored) duration(s)"), overlay)
        try fixture.write("costs.json5", overlay)
        // The base assumes a lognormal key cost in the other form; the overlay replaces it.
        let path = try fixture.write("s.json5", """
        {
          traces: ['trace.jsonl'],
          include: ['costs.json5'],
          keyboard: {work: {key: {cost: {type: 'lognormal', medianMs: 2.5, p99Ms: 8}}, lookup: {cost: {type: 'lognormal', mu: 0, sigma: 1}}}},
          policies: {assumed: {}},
        }
        """)
        let scenario = try ScenarioLoader.load(path: path)
        for calibration in run.calibrations {
            let loaded: Distribution
            switch calibration.target {
            case .work(let kind): loaded = scenario.keyboard.config(for: kind).cost
            case .networkRoundTrip: loaded = scenario.keyboard.network.goodRoundTrip
            default: return XCTFail("unexpected \(calibration.target)")
            }
            for p in [0.1, 0.5, 0.9, 0.99] {
                let expected = try XCTUnwrap(calibration.chosen.distribution.quantile(p))
                XCTAssertEqual(try XCTUnwrap(loaded.quantile(p)), expected, accuracy: 1e-4 * expected, "\(calibration.target.name) p \(p)")
            }
        }
        // In a policy: the base keeps its assumed costs, the policy takes the calibrated ones.
        let policyPath = try fixture.write("p.json5", """
        {traces: ['trace.jsonl'], policies: {assumed: {}, calibrated: {include: 'costs.json5'}}}
        """)
        let assumed = try ScenarioLoader.load(path: policyPath, policy: "assumed")
        let calibrated = try ScenarioLoader.load(path: policyPath, policy: "calibrated")
        XCTAssertEqual(assumed.keyboard.config(for: .lookup).cost, KeyboardWork.defaults[.lookup]!.cost)
        XCTAssertEqual(try XCTUnwrap(calibrated.keyboard.config(for: .lookup).cost.quantile(0.5)),
                       try XCTUnwrap(run.calibrations[1].chosen.distribution.quantile(0.5)), accuracy: 1e-4)
        XCTAssertEqual(calibrated.policyNames, ["assumed", "calibrated"])
    }

    func testIncludeErrorsNameTheIncludedFile() throws {
        let fixture = try ScenarioFixture()
        try fixture.write("bad.json5", "{\n  keyboard: {work: {lookup: {cost: {type: 'weibull', shape: -1, scaleMs: 2}}}},\n}\n")
        XCTAssertEqual(try fixture.loadError("{traces: ['trace.jsonl'], include: 'bad.json5'}")?.description,
                       fixture.directory + "/bad.json5:2:61: error: keyboard.work.lookup.cost.shape: must be greater than 0 (got -1)")
        try fixture.write("traces.json5", "{traces: ['trace.jsonl']}")
        XCTAssertEqual(try fixture.loadError("{traces: ['trace.jsonl'], include: ['traces.json5']}")?.description,
                       fixture.directory + "/traces.json5:1:10: error: traces: an included file cannot set 'traces'; set it in the scenario")
        XCTAssertEqual(try fixture.loadError("{traces: ['trace.jsonl'],\n include: ['missing.json5']}")?.description,
                       fixture.directory + "/s.json5:2:12: error: include: included file not found: \(fixture.directory)/missing.json5")
        XCTAssertEqual(try fixture.loadError("{traces: ['trace.jsonl'], include: 3}")?.description,
                       fixture.directory + "/s.json5:1:36: error: include: expected a file name or an array of file names, found a number")
        try fixture.write("syntax.json5", "{keyboard: {,}}")
        XCTAssertEqual(try fixture.loadError("{traces: ['trace.jsonl'], policies: {c: {include: 'syntax.json5'}}}")?.description.hasPrefix(fixture.directory + "/syntax.json5:1:13: error: "), true)
    }

    func testAScenarioTakesACostStraightFromATracesMeasurements() throws {
        let fixture = try ScenarioFixture()
        try fixture.write("device.jsonl", """
        {"keysim":"trace","version":1}
        {"t":0,"type":"key","text":"a"}
        {"t":3,"type":"measure","kind":"lookup","durationMs":3}
        {"t":9,"type":"measure","kind":"lookup","durationMs":4.5}
        {"t":10,"type":"measure","kind":"key","durationMs":1.25}

        """)
        let scenario = try ScenarioLoader.load(path: try fixture.write("s.json5", """
        {traces: ['trace.jsonl'], keyboard: {work: {lookup: {cost: {type: 'measured', trace: 'device.jsonl', kind: 'lookup'}}}}}
        """))
        XCTAssertEqual(scenario.keyboard.config(for: .lookup).cost, .empirical(samples: [3, 4.5]))
        let lines = (0..<40).map { #"{"t":\#(20 + $0),"type":"measure","kind":"draw","durationMs":\#(0.5 + Double($0 % 9) * 0.1)}"# }
        try fixture.write("draws.jsonl", "{\"keysim\":\"trace\",\"version\":1}\n" + lines.joined(separator: "\n") + "\n")
        let fitted = try ScenarioLoader.load(path: try fixture.write("f.json5", """
        {traces: ['trace.jsonl'], keyboard: {work: {draw: {cost: {type: 'measured', trace: 'draws.jsonl', kind: 'draw', fit: 'gamma'}}}}}
        """))
        var series = MeasuredSeries(name: "draw")
        series.samplesMs = (0..<40).map { 0.5 + Double($0 % 9) * 0.1 }
        XCTAssertEqual(fitted.keyboard.config(for: .draw).cost, CostFitter().fit(series, family: .gamma)?.distribution)
        XCTAssertEqual(try fixture.loadError("{traces: ['trace.jsonl'], keyboard: {work: {lookup: {cost: {type: 'measured', trace: 'device.jsonl', kind: 'lookup', fit: 'auto'}}}}}")?.message,
                       "2 'lookup' duration(s) in \(fixture.directory)/device.jsonl cannot be fitted (at least 5 needed, not all equal)")
        XCTAssertEqual(try fixture.loadError("{traces: ['trace.jsonl'], keyboard: {work: {draw: {cost: {type: 'measured', trace: 'device.jsonl', kind: 'draw'}}}}}")?.description,
                       fixture.directory + "/s.json5:1:106: error: keyboard.work.draw.cost.kind: \(fixture.directory)/device.jsonl measured no 'draw'; it measured key, lookup")
        XCTAssertEqual(try fixture.loadError("{traces: ['trace.jsonl'], keyboard: {work: {draw: {cost: {type: 'measured', trace: 'none.jsonl', kind: 'draw'}}}}}")?.description,
                       fixture.directory + "/s.json5:1:84: error: keyboard.work.draw.cost.trace: \(fixture.directory)/none.jsonl: no such file")
    }

    func testWeibullAndShiftedLoadFromScenarios() throws {
        let fixture = try ScenarioFixture()
        let scenario = try ScenarioLoader.load(path: try fixture.write("s.json5", """
        {traces: ['trace.jsonl'], keyboard: {work: {
          rerank: {cost: {type: 'weibull', shape: 1.8, scaleMs: 22}},
          draw: {cost: {type: 'shifted', shiftMs: 0.4, distribution: {type: 'gamma', shape: 2, scaleMs: 0.2}}},
        }}}
        """))
        XCTAssertEqual(scenario.keyboard.config(for: .rerank).cost, .weibull(shape: 1.8, scale: 22))
        XCTAssertEqual(scenario.keyboard.config(for: .draw).cost, .shifted(offset: 0.4, base: .gamma(shape: 2, scale: 0.2)))
        XCTAssertEqual(try fixture.loadError("{traces: ['trace.jsonl'], keyboard: {work: {draw: {cost: {type: 'shifted', shiftMs: 1}}}}}")?.message,
                       "shifted needs 'shiftMs' and 'distribution'")
    }
}
