import Foundation

/// A chart of values per minute of a day, drawn as an `SVGChart` (its layout, escaping and
/// style): clock-time ticks on the x axis (every hour over a day, closer over a short one),
/// each series a line broken where a minute has no value — a gap, never a zero — and a
/// span of the day (the busiest hour) shaded behind the lines.
struct SVGTimeSeriesChart {
    /// One line: a value per minute, nil where the minute has none.
    struct Series {
        var label: String
        var values: [Double?]
        /// An SVG dash pattern, for a line that may lie on another (admitted on arrivals);
        /// nil for the palette's.
        var dash: String? = nil
    }

    var title: String
    var yLabel: String
    /// The series, each with one value per minute of the day (minute 0 first).
    var series: [Series]
    /// Minutes of the day shown (the length of every series).
    var minutes: Int
    /// The clock time of minute 0, minutes after midnight.
    var startMinute = 0
    /// A span of minutes shaded behind the lines, and its legend label.
    var shaded: (minutes: Range<Int>, label: String)?
    /// Whether the y axis reads as percentages of a share (0…1).
    var yAsPercent = false
    /// A fixed top of the y axis (1 for a share); nil fits the largest value.
    var yMaximum: Double?
    var width = 1280.0
    var height = 260.0

    /// The shade's colour: a light grey that lines of every palette colour stay legible on.
    static let shadeColor = "#afb8c1"

    /// The chart as inline SVG.
    func render() -> String {
        let largest = series.flatMap { $0.values.compactMap { $0 } }.filter(\.isFinite).max() ?? 0
        let top = yMaximum ?? SVGChart.niceMaximum(largest)
        var chart = SVGChart(title: title, xLabel: "time of day", yLabel: yLabel,
                             xRange: 0...Double(max(minutes, 1)), yRange: 0...top)
        chart.width = width
        chart.height = height
        chart.yAsPercent = yAsPercent
        chart.xTicks = Self.clockTicks(minutes: minutes, startMinute: startMinute)
        if let shaded, !shaded.minutes.isEmpty {
            chart.marks.append(.bars(bins: [(Double(shaded.minutes.lowerBound), Double(shaded.minutes.upperBound), top)],
                                     color: Self.shadeColor, label: shaded.label))
        }
        for (index, line) in series.enumerated() {
            chart.marks += Self.marks(line, color: SVGChart.color(index), dash: line.dash ?? SVGChart.dash(index), startMinute: startMinute)
        }
        return chart.render()
    }

    /// A series as marks: a polyline through each run of minutes with values, a minute's
    /// value drawn at its middle; a lone value between gaps as a dot. Only the first mark
    /// carries the label, so the legend names the series once.
    static func marks(_ series: Series, color: String, dash: String?, startMinute: Int = 0) -> [SVGChart.Mark] {
        var runs: [[(x: Double, y: Double)]] = []
        var current: [(x: Double, y: Double)] = []
        for (minute, value) in series.values.enumerated() {
            if let value, value.isFinite {
                current.append((Double(minute) + 0.5, value))
            } else if !current.isEmpty {
                runs.append(current)
                current = []
            }
        }
        if !current.isEmpty { runs.append(current) }
        var marks: [SVGChart.Mark] = []
        var lone: [(x: Double, y: Double, label: String, emphasised: Bool)] = []
        for run in runs {
            if run.count == 1 {
                lone.append((run[0].x, run[0].y, "\(series.label) at \(clockText(startMinute + Int(run[0].x)))", false))
            } else {
                marks.append(.line(points: run, color: color, label: marks.isEmpty ? series.label : "", dash: dash))
            }
        }
        if !lone.isEmpty { marks.append(.points(points: lone, color: color, label: marks.isEmpty ? series.label : "")) }
        // A series with no value at all still has its legend entry, so the reader sees it is empty.
        if marks.isEmpty { marks.append(.line(points: [], color: color, label: series.label + " (no values)", dash: dash)) }
        return marks
    }

    /// Ticks at whole clock times: every hour over a long day (every 2 or 3 hours when the
    /// day is longer than one), every 5 to 30 minutes over a day of a few hours or less;
    /// at most about 25 of them.
    static func clockTicks(minutes: Int, startMinute: Int = 0) -> [(x: Double, text: String)] {
        let steps = [5, 10, 15, 30, 60, 120, 180, 360]
        let step = steps.first { minutes / $0 <= 24 } ?? 360
        // Ticks at whole clock times: the first at or after the start.
        let first = (step - startMinute % step) % step
        return stride(from: first, through: max(minutes, 1), by: step).map { (Double($0), clockText(startMinute + $0)) }
    }

    /// `13:00`, `0:05`: minutes after midnight as a clock time; the end of a day is `24:00`,
    /// a time past it counts from midnight again.
    static func clockText(_ minute: Int) -> String {
        let inDay = minute > 0 && minute % 1_440 == 0 ? 1_440 : minute % 1_440
        let minutes = inDay % 60
        return "\(inDay / 60):" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }
}
