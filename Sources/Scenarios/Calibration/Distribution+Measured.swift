import Sim

extension Distribution {
    /// Reads `{type: "measured", trace: "device.jsonl", kind: "lookup"}`: the durations the
    /// trace measured for `kind` (its `measure` lines), replayed as an empirical
    /// distribution, or with `fit: "auto"` (or a family, as `keysim calibrate --kind` takes)
    /// fitted as `keysim calibrate` fits them. The trace path is relative to the scenario file.
    static func measured(_ o: inout ConfigReader) throws(ConfigError) -> Distribution {
        let trace = try o.required("trace") { f throws(ConfigError) in try f.string() }
        let kind = try o.required("kind") { f throws(ConfigError) in try f.string() }
        let fit = try o.optional("fit") { f throws(ConfigError) in
            try f.oneOf(["auto"] + FitFamily.allCases.map(\.rawValue))
        }
        let path = ScenarioLoader.resolve(trace, besides: o.file)
        let reading: CostReading
        do {
            reading = try TraceCostReader.read(path: path)
        } catch {
            throw o.error("trace", error.quoted)
        }
        guard let series = reading.series.first(where: { $0.name == kind }) else {
            let known = reading.series.map(\.name)
            throw o.error("kind", "\(path) measured no '\(kind)'" + (known.isEmpty ? " (it has no measure lines)" : "; it measured \(known.joined(separator: ", "))"))
        }
        if let fit {
            let family = fit == "auto" ? nil : FitFamily(rawValue: fit)
            guard let calibration = CostCalibration.calibrate(series, target: .work(.key), kind: family) else {
                throw o.error("fit", "\(series.count) '\(kind)' duration(s) in \(path) cannot be fitted (at least \(CostFitter.samplesMin) needed, not all equal)")
            }
            return calibration.chosen.distribution
        }
        guard series.samplesMs.count <= CostFitter.empiricalSamplesMax else {
            throw o.error("kind", "\(path) measured \(series.samplesMs.count) '\(kind)' durations, more than the \(CostFitter.empiricalSamplesMax) an empirical distribution holds; fit them with keysim calibrate")
        }
        return .empirical(samples: series.samplesMs)
    }
}
