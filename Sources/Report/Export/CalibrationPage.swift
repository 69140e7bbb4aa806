import Foundation
import Scenarios
import Sim

/// The page `keysim calibrate --html` writes: per target, the fits tried with their
/// Kolmogorov–Smirnov statistics and AIC, the measured and fitted CDFs, and a Q-Q plot of
/// the chosen fit against the measurements. Self-contained like the report's HTML page:
/// inline SVG, no scripts, nothing fetched.
public enum CalibrationPage {
    /// The page's HTML.
    /// - Parameter command: the command line that made the calibration, shown at the top.
    public static func html(_ run: CalibrationRun, command: String) -> String {
        var html = HTMLExporter.head(title: "keysim calibration")
        html += "<h1>keysim calibration</h1>\n"
        html += "<p class=\"meta\"><code>\(esc(command))</code></p>\n"
        html += "<p>Inputs:</p>\n<ul>\n"
        for reading in run.readings {
            let count = reading.series.reduce(0) { $0 + $1.count }
            html += "<li><code>\(esc(reading.file))</code>: \(esc(reading.format.rawValue)), \(reading.series.count) name(s), \(count) duration(s)"
            for remark in reading.remarks { html += "; \(esc(remark))" }
            html += "</li>\n"
        }
        html += "</ul>\n"
        html += "<p class=\"note\">Criterion: the lowest AIC among the fits whose Kolmogorov–Smirnov statistic D is at most max(1.628/√n, \(CalibrationOverlay.format(run.fitter.ksFloor))); the quantile table when no fit is acceptable. Bucketed durations are fitted as interval-censored data, and their D is taken at the bucket edges.</p>\n"
        if !run.unmapped.isEmpty {
            html += "<p><strong>Unmapped names</strong> (map them with <code>--map NAME=kind</code>):</p>\n<ul>\n"
            for unmapped in run.unmapped {
                html += "<li><code>\(esc(unmapped.name))</code>: \(unmapped.count) duration(s) in \(esc(unmapped.files.joined(separator: ", ")))</li>\n"
            }
            html += "</ul>\n"
        }
        for skipped in run.skipped {
            html += "<p class=\"note\">Not calibrated: \(esc(skipped.target.name)): \(esc(skipped.reason)).</p>\n"
        }
        for calibration in run.calibrations { html += section(calibration) }
        html += "</body>\n</html>\n"
        return html
    }

    private static func section(_ c: CostCalibration) -> String {
        var html = "<h2>\(esc(c.target.name))</h2>\n"
        html += "<p>\(c.series.count) \(c.series.isCensored ? "bucketed" : "individual") duration(s) from \(esc(c.series.sources.joined(separator: "; "))). "
        html += "Chosen: <strong>\(esc(c.chosen.family.rawValue))</strong> <code>\(esc(CalibrationOverlay.json5(c.chosen.distribution)))</code>"
        if c.forced { html += " (forced with --kind)" }
        html += ".</p>\n"
        if c.noAcceptableFit {
            html += "<p><strong>No parametric fit is acceptable</strong> (no D within \(CalibrationOverlay.format(c.ksLimit))): the quantile table is written.</p>\n"
        }
        html += "<table><tr><th>family</th><th>D</th><th>limit</th><th>acceptable</th><th>AIC</th><th>distribution</th></tr>\n"
        for fit in c.fits + (c.fits.contains { $0.family == c.chosen.family } ? [] : [c.chosen]) {
            let row = fit.family == c.chosen.family ? "<tr class=\"hl\">" : "<tr>"
            html += row + "<td>\(esc(fit.family.rawValue))</td><td class=\"num\">\(CalibrationOverlay.format(fit.ksStatistic))</td>"
            html += "<td class=\"num\">\(CalibrationOverlay.format(c.ksLimit))</td><td>\(fit.ksStatistic <= c.ksLimit ? "yes" : "no")</td>"
            html += "<td class=\"num\">\(fit.aic.map(CalibrationOverlay.format) ?? "-")</td>"
            let text = CalibrationOverlay.json5(fit.distribution)
            html += "<td><code>\(esc(text.count > 160 ? String(text.prefix(160)) + "…" : text))</code></td></tr>\n"
        }
        html += "</table>\n<div class=\"charts\">\n\(cdfChart(c))\n\(qqChart(c))\n</div>\n"
        return html
    }

    /// The measured CDF against the chosen fit and the other parametric fits.
    private static func cdfChart(_ c: CostCalibration) -> String {
        let measured = MeasuredCDF(c.series)
        let xMax = SVGChart.niceMaximum(Swift.max(measured.quantile(0.999), measured.minimumMs + 1e-3))
        var chart = SVGChart(title: "\(c.target.name): cumulative distribution", xLabel: "milliseconds",
                             yLabel: "share at or below", xRange: 0...xMax, yRange: 0...1)
        chart.yAsPercent = true
        chart.legendAtBottom = true
        let steps = 200
        let xs = (0...steps).map { xMax * Double($0) / Double(steps) }
        chart.marks.append(.line(points: xs.map { ($0, measured.cdf($0)) }, color: "#24292f", label: "measured"))
        var fits = [c.chosen] + c.fits.filter { $0.family != c.chosen.family }
        fits = Array(fits.prefix(4))
        for (index, fit) in fits.enumerated() {
            chart.marks.append(.line(points: xs.map { ($0, fit.distribution.cdf($0)) }, color: SVGChart.palette[index % SVGChart.palette.count],
                                     label: fit.family.rawValue + (index == 0 ? " (chosen)" : "")))
        }
        return chart.render()
    }

    /// Fitted quantiles against measured ones at p = 0.5%, 1.5%, …, 99.5%, with the diagonal.
    private static func qqChart(_ c: CostCalibration) -> String {
        let measured = MeasuredCDF(c.series)
        let ps = (0..<100).map { (Double($0) + 0.5) / 100 }
        let points = ps.map { p in (x: measured.quantile(p), y: c.chosen.distribution.quantile(p) ?? 0) }
        let top = SVGChart.niceMaximum(Swift.max(points.map(\.x).max() ?? 1, points.map(\.y).filter(\.isFinite).max() ?? 1, 1e-3))
        var chart = SVGChart(title: "\(c.target.name): Q-Q plot of \(c.chosen.family.rawValue)", xLabel: "measured quantile (ms)",
                             yLabel: "fitted quantile (ms)", xRange: 0...top, yRange: 0...top)
        chart.legendAtBottom = true
        chart.marks.append(.line(points: [(0, 0), (top, top)], color: "#8c959f", label: "y = x"))
        chart.marks.append(.points(points: points.filter { $0.y.isFinite }.map { ($0.x, Swift.min($0.y, top), "", false) },
                                   color: SVGChart.palette[0], label: "percentiles 0.5…99.5"))
        return chart.render()
    }

    private static func esc(_ text: String) -> String { HTMLEscaper.escape(text) }
}
