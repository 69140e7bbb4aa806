import Sim

/// One `keysim calibrate` run: the inputs read, the calibration of every target they
/// measured, and the measured names that calibrate nothing.
public struct CalibrationRun: Sendable, Equatable {
    /// A measured name no mapping claims, with how many durations it had and where.
    public struct Unmapped: Sendable, Equatable {
        /// The name as measured.
        public var name: String
        /// Its durations, over all inputs.
        public var count: Int
        /// The inputs it appeared in.
        public var files: [String]
    }

    /// The inputs, in command-line order.
    public var readings: [CostReading]
    /// One calibration per target measured, in `CalibrationTarget.all` order.
    public var calibrations: [CostCalibration]
    /// Targets measured but not calibrated, with the reason (too few durations, all equal,
    /// a forced family that does not apply).
    public var skipped: [(target: CalibrationTarget, reason: String)]
    /// Names no mapping claims, sorted by name.
    public var unmapped: [Unmapped]
    /// The fitter's settings.
    public var fitter: CostFitter

    /// Whether two runs read, calibrated and skipped the same.
    public static func == (a: CalibrationRun, b: CalibrationRun) -> Bool {
        a.readings == b.readings && a.calibrations == b.calibrations && a.unmapped == b.unmapped
            && a.skipped.map(\.target) == b.skipped.map(\.target) && a.skipped.map(\.reason) == b.skipped.map(\.reason)
    }

    /// Maps every series of `readings` to its target, merges the series of each target,
    /// and calibrates each one (`kind` forces a family).
    public init(readings: [CostReading], mapping: NameMapping, kind: FitFamily?, fitter: CostFitter = CostFitter()) {
        self.readings = readings
        self.fitter = fitter
        var byTarget: [CalibrationTarget: MeasuredSeries] = [:]
        var unmapped: [String: Unmapped] = [:]
        for reading in readings {
            for series in reading.series {
                if let target = mapping.target(for: series.name) {
                    byTarget[target, default: MeasuredSeries(name: target.name)].merge(series)
                } else {
                    var entry = unmapped[series.name] ?? Unmapped(name: series.name, count: 0, files: [])
                    entry.count += series.count
                    if !entry.files.contains(reading.file) { entry.files.append(reading.file) }
                    unmapped[series.name] = entry
                }
            }
        }
        self.unmapped = unmapped.keys.sorted().map { unmapped[$0]! }
        calibrations = []
        skipped = []
        for target in CalibrationTarget.all {
            guard let series = byTarget[target] else { continue }
            if let calibration = CostCalibration.calibrate(series, target: target, kind: kind, fitter: fitter) {
                calibrations.append(calibration)
            } else if series.count < CostFitter.samplesMin {
                skipped.append((target, "only \(series.count) duration(s); a fit needs at least \(CostFitter.samplesMin)"))
            } else if MeasuredCDF(series).maximumMs <= MeasuredCDF(series).minimumMs {
                skipped.append((target, "all \(series.count) durations are equal; nothing to fit"))
            } else if let kind {
                skipped.append((target, "\(kind.rawValue) does not apply to these durations"
                    + (kind == .empirical ? " (histograms have no individual durations)" : kind.isShifted ? " (no minimum is plain in the data)" : "")))
            } else {
                skipped.append((target, "no fit applies to these durations"))
            }
        }
    }
}
