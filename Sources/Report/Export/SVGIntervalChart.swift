import Foundation

/// A chart of one value per row with its 95 % interval — a dot and a whisker on a shared
/// horizontal axis, a row per batch or per metric (a "forest plot"): the way to see at a
/// glance which policies differ in a metric, and which differences a comparison found.
/// Inline SVG like `SVGChart`, sized to its rows.
struct SVGIntervalChart {
    /// One row: its label, the value and its interval (nil: no value, the row says so).
    struct Row {
        var label: String
        var value: Double?
        var lower: Double?
        var upper: Double?
        /// Drawn in the accent colour (a significant difference, the best policy).
        var emphasised = false
        /// Text after the row's value, right of the plot (`+12.5 [3.1, 21.9]`).
        var note: String = ""
    }

    var title: String
    var xLabel: String
    var rows: [Row]
    /// A vertical reference line (zero difference), when inside the range.
    var reference: Double?
    var width = 640.0
    /// The x range; by default the values and intervals with some room.
    var xRange: ClosedRange<Double>?

    private static let rowHeight = 20.0, top = 28.0, bottom = 40.0, noteWidth = 150.0

    func render() -> String {
        let labelWidth = min(260, max(60, Double(rows.map(\.label.count).max() ?? 0) * 6.2 + 12))
        let left = labelWidth, right = Self.noteWidth
        let plotWidth = width - left - right, plotHeight = Double(rows.count) * Self.rowHeight
        let height = Self.top + plotHeight + Self.bottom
        let extent = rows.flatMap { [$0.value, $0.lower, $0.upper].compactMap { $0 } } + (reference.map { [$0] } ?? [])
        let range = xRange ?? SVGChart.paddedRange(extent.isEmpty ? [0, 1] : extent)
        let spanX = range.upperBound > range.lowerBound ? range.upperBound - range.lowerBound : 1
        func sx(_ x: Double) -> Double { left + (min(max(x, range.lowerBound), range.upperBound) - range.lowerBound) / spanX * plotWidth }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\" height=\"\(n(height))\" role=\"img\" aria-label=\"\(esc(title))\">"
        svg += "<title>\(esc(title))</title><text x=\"8\" y=\"16\" class=\"chart-title\">\(esc(title))</text>"
        for tick in SVGChart.ticks(range) {
            let x = sx(tick)
            svg += "<line x1=\"\(n(x))\" y1=\"\(n(Self.top))\" x2=\"\(n(x))\" y2=\"\(n(Self.top + plotHeight))\" class=\"grid\"/>"
            svg += "<text x=\"\(n(x))\" y=\"\(n(Self.top + plotHeight + 14))\" text-anchor=\"middle\" class=\"tick\">\(SVGChart.tickText(tick))</text>"
        }
        svg += "<rect x=\"\(n(left))\" y=\"\(n(Self.top))\" width=\"\(n(plotWidth))\" height=\"\(n(plotHeight))\" class=\"frame\"/>"
        svg += "<text x=\"\(n(left + plotWidth / 2))\" y=\"\(n(height - 8))\" text-anchor=\"middle\" class=\"axis\">\(esc(xLabel))</text>"
        if let reference, range.contains(reference) {
            svg += "<line x1=\"\(n(sx(reference)))\" y1=\"\(n(Self.top))\" x2=\"\(n(sx(reference)))\" y2=\"\(n(Self.top + plotHeight))\" class=\"reference\"/>"
        }
        for (index, row) in rows.enumerated() {
            let y = Self.top + (Double(index) + 0.5) * Self.rowHeight
            let color = row.emphasised ? "#cf222e" : "#1f77b4"
            svg += "<text x=\"\(n(left - 6))\" y=\"\(n(y + 4))\" text-anchor=\"end\" class=\"axis\">\(esc(row.label))</text>"
            guard let value = row.value else {
                svg += "<text x=\"\(n(left + 6))\" y=\"\(n(y + 4))\" class=\"tick\">no value</text>"
                continue
            }
            if let lower = row.lower, let upper = row.upper, upper > lower {
                svg += "<g stroke=\"\(color)\" stroke-width=\"1.5\"><line x1=\"\(n(sx(lower)))\" y1=\"\(n(y))\" x2=\"\(n(sx(upper)))\" y2=\"\(n(y))\"/>"
                svg += "<line x1=\"\(n(sx(lower)))\" y1=\"\(n(y - 4))\" x2=\"\(n(sx(lower)))\" y2=\"\(n(y + 4))\"/>"
                svg += "<line x1=\"\(n(sx(upper)))\" y1=\"\(n(y - 4))\" x2=\"\(n(sx(upper)))\" y2=\"\(n(y + 4))\"/></g>"
            }
            svg += "<circle cx=\"\(n(sx(value)))\" cy=\"\(n(y))\" r=\"4\" fill=\"\(color)\"><title>\(esc(row.label)): \(esc(row.note))</title></circle>"
            svg += "<text x=\"\(n(left + plotWidth + 6))\" y=\"\(n(y + 4))\" class=\"tick\">\(esc(row.note))</text>"
        }
        return svg + "</svg>"
    }

    private func n(_ value: Double) -> String { TextTable.fixed(value, value == value.rounded() ? 0 : 1) }
    private func esc(_ text: String) -> String { HTMLEscaper.escape(text) }
}
