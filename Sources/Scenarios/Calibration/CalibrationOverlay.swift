import Foundation
import Sim

/// Writes a calibration as a scenario overlay (JSON5): the fitted distribution of every
/// target at its field path, with comments that say where the durations came from, how
/// many there were, how well each family fitted and why the written one was chosen.
///
/// A scenario takes it with `include: ["costs.json5"]`, or a policy with
/// `policies: {calibrated: {include: "costs.json5"}}` (docs/scenario-format.md, "Includes").
public enum CalibrationOverlay {
    /// The overlay text.
    /// - Parameter command: the command line that made it, quoted in the first comment.
    public static func text(_ run: CalibrationRun, command: String) -> String {
        var lines: [String] = []
        lines.append("// keysim calibrate: costs measured on the device, fitted to distributions (milliseconds).")
        lines.append("// Made by: \(command)")
        for reading in run.readings {
            let count = reading.series.reduce(0) { $0 + $1.count }
            lines.append("// Input: \(reading.file) (\(reading.format.rawValue), \(reading.series.count) name(s), \(count) duration(s))")
            for remark in reading.remarks { lines.append("//   \(remark)") }
        }
        lines.append("// Criterion: the lowest AIC among the fits whose Kolmogorov–Smirnov statistic D is at most")
        lines.append("// max(1.628/√n, \(format(run.fitter.ksFloor))); the quantile table when no fit is acceptable.")
        for unmapped in run.unmapped {
            lines.append("// Unmapped: \"\(unmapped.name)\" (\(unmapped.count) duration(s) in \(unmapped.files.joined(separator: ", "))); map it with --map NAME=kind")
        }
        for skipped in run.skipped {
            lines.append("// Not calibrated: \(skipped.target.name): \(skipped.reason)")
        }
        lines.append("{")
        // Group the targets by their field paths: keyboard.work.*, network.*, cloud.*.
        var tree = Node()
        for calibration in run.calibrations {
            tree.insert(calibration.target.fieldPath[...], calibration)
        }
        tree.write(into: &lines, indent: "  ")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The comment lines above one target's distribution.
    static func provenance(_ c: CostCalibration) -> [String] {
        var lines: [String] = []
        let kindOfData = c.series.isCensored ? "bucketed (interval-censored)" : "individual"
        lines.append("\(c.target.name): \(c.series.count) \(kindOfData) duration(s) from " + c.series.sources.joined(separator: "; "))
        let reason: String
        if c.forced {
            reason = "forced with --kind"
        } else if c.noAcceptableFit {
            reason = "NO ACCEPTABLE PARAMETRIC FIT (no D within \(format(c.ksLimit))): the quantile table is written"
        } else {
            reason = "the lowest AIC of the acceptable fits"
        }
        lines.append("  chosen: \(c.chosen.family.rawValue), D \(format(c.chosen.ksStatistic)) (limit \(format(c.ksLimit))); \(reason)")
        let others = c.fits.map { fit in
            "\(fit.family.rawValue) D \(format(fit.ksStatistic))" + (fit.aic.map { " AIC \(format($0))" } ?? "")
                + (fit.ksStatistic <= c.ksLimit ? "" : " (not acceptable)")
        }
        if !others.isEmpty { lines.append("  fits: " + others.joined(separator: "; ")) }
        return lines
    }

    /// A distribution as scenario JSON5: `{type: "gamma", shape: 2.5, scaleMs: 1.2}`.
    public static func json5(_ distribution: Distribution) -> String {
        switch distribution {
        case .lognormal(let mu, let sigma):
            "{type: \"lognormal\", mu: \(format(mu)), sigma: \(format(sigma))}"
        case .gamma(let shape, let scale):
            "{type: \"gamma\", shape: \(format(shape)), scaleMs: \(format(scale))}"
        case .weibull(let shape, let scale):
            "{type: \"weibull\", shape: \(format(shape)), scaleMs: \(format(scale))}"
        case .shifted(let offset, let base):
            "{type: \"shifted\", shiftMs: \(format(offset)), distribution: \(json5(base))}"
        case .empirical(let samples):
            "{type: \"empirical\", samplesMs: [\(samples.map { $0.description }.joined(separator: ", "))]}"
        case .quantileTable(let points):
            "{type: \"quantiles\", table: [\(points.map { "[\(String(format: "%.9g", $0.p)), \(format($0.value))]" }.joined(separator: ", "))]}"
        case .constant(let value):
            "\(format(value))"
        default:
            preconditionFailure("calibration never writes a \(distribution.kindName) distribution")
        }
    }

    /// Six significant digits: enough for any cost, and the same text on every machine.
    public static func format(_ value: Double) -> String {
        String(format: "%.6g", value)
    }

    /// A level of the overlay's nested objects.
    private struct Node {
        var children: [(key: String, node: Node)] = []
        var calibration: CostCalibration?

        mutating func insert(_ path: ArraySlice<String>, _ calibration: CostCalibration) {
            guard let key = path.first else { self.calibration = calibration; return }
            if let index = children.firstIndex(where: { $0.key == key }) {
                children[index].node.insert(path.dropFirst(), calibration)
            } else {
                var node = Node()
                node.insert(path.dropFirst(), calibration)
                children.append((key, node))
            }
        }

        func write(into lines: inout [String], indent: String) {
            for (key, node) in children {
                if let calibration = node.calibration {
                    for line in CalibrationOverlay.provenance(calibration) { lines.append("\(indent)// \(line)") }
                    lines.append("\(indent)\(key): \(CalibrationOverlay.json5(calibration.chosen.distribution)),")
                } else {
                    lines.append("\(indent)\(key): {")
                    node.write(into: &lines, indent: indent + "  ")
                    lines.append("\(indent)},")
                }
            }
        }
    }
}
