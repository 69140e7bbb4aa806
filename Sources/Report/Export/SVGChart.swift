import Foundation

/// A small chart drawn as inline SVG: axes with round ticks, lines, bars and points, and
/// vertical reference lines (budgets). No scripts, no fonts to fetch: the HTML report must
/// read the same offline and with scripts disabled.
struct SVGChart {
    /// What is drawn.
    enum Mark {
        /// A polyline through the points, in data coordinates; `dash` an SVG dash pattern.
        case line(points: [(x: Double, y: Double)], color: String, label: String, dash: String? = nil)
        /// Bars from `x0` to `x1`, `y` high, drawn translucent so that series overlap legibly.
        case bars(bins: [(x0: Double, x1: Double, y: Double)], color: String, label: String)
        /// Points; `emphasised` ones are drawn larger and labelled (every one, with
        /// `labelEveryPoint`).
        case points(points: [(x: Double, y: Double, label: String, emphasised: Bool)], color: String, label: String)
        /// 95 % intervals drawn as whiskers: horizontal from `x.lower` to `x.upper` and
        /// vertical from `y.lower` to `y.upper` through (`x.mid`, `y.mid`).
        case whiskers(intervals: [(x: Interval, y: Interval)], color: String)
    }

    /// A value and its interval, in data coordinates.
    struct Interval {
        var lower: Double
        var mid: Double
        var upper: Double
        /// A point with no interval.
        init(_ value: Double) { (lower, mid, upper) = (value, value, value) }
        /// `mid` ± `halfWidth`.
        init(_ mid: Double, halfWidth: Double) { (lower, self.mid, upper) = (mid - halfWidth, mid, mid + halfWidth) }
    }

    var title: String
    var xLabel: String
    var yLabel: String
    var xRange: ClosedRange<Double>
    var yRange: ClosedRange<Double>
    var marks: [Mark] = []
    /// Vertical lines at data x, with a label (budgets).
    var verticalLines: [(x: Double, label: String)] = []
    var yAsPercent = false
    /// The x axis's ticks and their text when the chart chooses them itself (hours of a day);
    /// nil for about five round ones (`ticks`).
    var xTicks: [(x: Double, text: String)]? = nil
    /// Whether the y axis is logarithmic (decades); its range must be positive.
    var yLog = false
    /// Whether every point of a `.points` mark is labelled where its label fits, not only
    /// the emphasised ones.
    var labelEveryPoint = false
    var width = 640.0
    /// The height of the plot and its axes; the legend, below them, adds to it.
    var height = 300.0

    private let left = 64.0, right = 16.0, top = 28.0, bottom = 46.0

    /// The colours of successive series: distinguishable, and legible on white. Past the
    /// last, `dash(_:)` draws lines dashed so that every series stays told apart.
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
                          "#7f7f7f", "#bcbd22", "#393b79", "#637939"]

    /// The colour of the `index`th series.
    static func color(_ index: Int) -> String { palette[index % palette.count] }

    /// The dash pattern of the `index`th series: solid for the first round of colours.
    static func dash(_ index: Int) -> String? { index < palette.count ? nil : ["6 3", "2 2", "8 3 2 3"][(index / palette.count - 1) % 3] }

    func render() -> String {
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        func sx(_ x: Double) -> Double { left + (x - xRange.lowerBound) / span(xRange) * plotWidth }
        func sy(_ y: Double) -> Double {
            if yLog {
                let low = log10(yRange.lowerBound), high = log10(yRange.upperBound)
                return top + plotHeight - (log10(max(y, yRange.lowerBound)) - low) / (high > low ? high - low : 1) * plotHeight
            }
            return top + plotHeight - (y - yRange.lowerBound) / span(yRange) * plotHeight
        }
        let legend = legendLayout(plotWidth: plotWidth)
        let fullHeight = height + legend.height
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(width)) \(n(fullHeight))\" width=\"\(n(width))\" height=\"\(n(fullHeight))\" role=\"img\" aria-label=\"\(escape(title))\">"
        svg += "<title>\(escape(title))</title>"
        svg += "<text x=\"\(n(left))\" y=\"16\" class=\"chart-title\">\(escape(title))</text>"
        // Grid and ticks.
        for (tick, text) in xTicks ?? Self.ticks(xRange).map({ ($0, Self.tickText($0)) }) {
            let x = sx(tick)
            svg += "<line x1=\"\(n(x))\" y1=\"\(n(top))\" x2=\"\(n(x))\" y2=\"\(n(top + plotHeight))\" class=\"grid\"/>"
            svg += "<text x=\"\(n(x))\" y=\"\(n(top + plotHeight + 16))\" text-anchor=\"middle\" class=\"tick\">\(escape(text))</text>"
        }
        for tick in yLog ? Self.decades(yRange) : Self.ticks(yRange) {
            let y = sy(tick)
            svg += "<line x1=\"\(n(left))\" y1=\"\(n(y))\" x2=\"\(n(left + plotWidth))\" y2=\"\(n(y))\" class=\"grid\"/>"
            let text = yAsPercent ? Self.percentText(tick) : Self.tickText(tick)
            svg += "<text x=\"\(n(left - 6))\" y=\"\(n(y + 4))\" text-anchor=\"end\" class=\"tick\">\(text)</text>"
        }
        svg += "<rect x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(plotWidth))\" height=\"\(n(plotHeight))\" class=\"frame\"/>"
        svg += "<text x=\"\(n(left + plotWidth / 2))\" y=\"\(n(height - 8))\" text-anchor=\"middle\" class=\"axis\">\(escape(xLabel))</text>"
        svg += "<text transform=\"translate(14 \(n(top + plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\" class=\"axis\">\(escape(yLabel))</text>"
        // Marks, clipped to the plot.
        for mark in marks {
            switch mark {
            case .bars(let bins, let color, let label):
                svg += "<g fill=\"\(color)\" fill-opacity=\"0.35\" stroke=\"\(color)\" stroke-width=\"0.5\"><title>\(escape(label))</title>"
                for bin in bins where bin.y > 0 {
                    let x0 = sx(max(bin.x0, xRange.lowerBound)), x1 = sx(min(bin.x1, xRange.upperBound))
                    let y = sy(min(bin.y, yRange.upperBound))
                    svg += "<rect x=\"\(n(x0))\" y=\"\(n(y))\" width=\"\(n(max(x1 - x0, 0.5)))\" height=\"\(n(top + plotHeight - y))\"/>"
                }
                svg += "</g>"
            case .line(let points, let color, let label, let dash):
                let clipped = points.filter { xRange.contains($0.x) }
                guard !clipped.isEmpty else { continue }
                let path = clipped.map { "\(n(sx($0.x))),\(n(sy(min(max($0.y, yRange.lowerBound), yRange.upperBound))))" }.joined(separator: " ")
                let dashed = dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
                svg += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.8\"\(dashed)><title>\(escape(label))</title></polyline>"
            case .whiskers(let intervals, let color):
                svg += "<g stroke=\"\(color)\" stroke-width=\"1.2\">"
                for interval in intervals {
                    let (x, y) = (sx(interval.x.mid), sy(interval.y.mid))
                    if interval.x.upper > interval.x.lower {
                        let (x0, x1) = (sx(max(interval.x.lower, xRange.lowerBound)), sx(min(interval.x.upper, xRange.upperBound)))
                        svg += "<line x1=\"\(n(x0))\" y1=\"\(n(y))\" x2=\"\(n(x1))\" y2=\"\(n(y))\"/>"
                        svg += "<line x1=\"\(n(x0))\" y1=\"\(n(y - 3))\" x2=\"\(n(x0))\" y2=\"\(n(y + 3))\"/><line x1=\"\(n(x1))\" y1=\"\(n(y - 3))\" x2=\"\(n(x1))\" y2=\"\(n(y + 3))\"/>"
                    }
                    if interval.y.upper > interval.y.lower {
                        let (y0, y1) = (sy(max(interval.y.lower, yRange.lowerBound)), sy(min(interval.y.upper, yRange.upperBound)))
                        svg += "<line x1=\"\(n(x))\" y1=\"\(n(y0))\" x2=\"\(n(x))\" y2=\"\(n(y1))\"/>"
                        svg += "<line x1=\"\(n(x - 3))\" y1=\"\(n(y0))\" x2=\"\(n(x + 3))\" y2=\"\(n(y0))\"/><line x1=\"\(n(x - 3))\" y1=\"\(n(y1))\" x2=\"\(n(x + 3))\" y2=\"\(n(y1))\"/>"
                    }
                }
                svg += "</g>"
            case .points(let points, let color, let label):
                svg += "<g fill=\"\(color)\"><title>\(escape(label))</title>"
                // Labels go beside their point where they overlap no other label; a label
                // with no free place is left to the point's tooltip.
                var placed: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
                for point in points {
                    let x = sx(point.x), y = sy(point.y)
                    svg += "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(point.emphasised ? 5 : 3)\"\(point.emphasised ? "" : " fill-opacity=\"0.45\"")><title>\(escape(point.label))</title></circle>"
                    guard point.emphasised || labelEveryPoint else { continue }
                    let textWidth = Double(point.label.count) * 5.6, textHeight = 11.0
                    let candidates: [(x: Double, y: Double, anchor: String)] = [
                        (x + 7, y - 6, "start"), (x + 7, y + 14, "start"), (x - 7, y - 6, "end"), (x - 7, y + 14, "end"),
                        (x, y - 9, "middle"), (x, y + 18, "middle"),
                    ]
                    for candidate in candidates {
                        let x0 = candidate.anchor == "start" ? candidate.x : candidate.anchor == "end" ? candidate.x - textWidth
                            : candidate.x - textWidth / 2
                        let box = (x0: x0, y0: candidate.y - textHeight, x1: x0 + textWidth, y1: candidate.y + 2)
                        let inside = box.x0 >= left && box.x1 <= left + plotWidth && box.y0 >= top && box.y1 <= top + plotHeight
                        let free = !placed.contains { $0.x0 < box.x1 && box.x0 < $0.x1 && $0.y0 < box.y1 && box.y0 < $0.y1 }
                        guard inside && free else { continue }
                        placed.append(box)
                        svg += "<text x=\"\(n(candidate.x))\" y=\"\(n(candidate.y))\" text-anchor=\"\(candidate.anchor)\" class=\"point-label\">\(escape(point.label))</text>"
                        break
                    }
                }
                svg += "</g>"
            }
        }
        for line in verticalLines where xRange.contains(line.x) {
            let x = sx(line.x)
            svg += "<line x1=\"\(n(x))\" y1=\"\(n(top))\" x2=\"\(n(x))\" y2=\"\(n(top + plotHeight))\" class=\"budget\"/>"
            svg += "<text x=\"\(n(x - 4))\" y=\"\(n(top + 12))\" text-anchor=\"end\" class=\"budget-label\">\(escape(line.label))</text>"
        }
        // Legend, below the plot in columns: clear of the lines and the budget labels.
        for (index, item) in legend.items.enumerated() {
            let column = index / legend.rows, row = index % legend.rows
            let x = left + Double(column) * legend.columnWidth, y = height + Double(row) * 15 + 4
            if item.isLine {
                let dash = item.dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
                svg += "<line x1=\"\(n(x))\" y1=\"\(n(y - 4))\" x2=\"\(n(x + 16))\" y2=\"\(n(y - 4))\" stroke=\"\(item.color)\" stroke-width=\"2.5\"\(dash)/>"
            } else {
                svg += "<rect x=\"\(n(x + 3))\" y=\"\(n(y - 9))\" width=\"10\" height=\"10\" fill=\"\(item.color)\"/>"
            }
            svg += "<text x=\"\(n(x + 20))\" y=\"\(n(y))\" class=\"legend\">\(escape(item.label))</text>"
        }
        return svg + "</svg>"
    }

    /// Round tick positions inside `range`: steps of 1, 2 or 5 times a power of ten, about
    /// five of them.
    static func ticks(_ range: ClosedRange<Double>) -> [Double] {
        let width = span(range)
        let raw = width / 5
        let power = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= raw } ?? 10 * power
        // Multiples of the step, rounded to its decimals so that 0.6 prints as 0.6.
        let first = Int((range.lowerBound / step).rounded(.up))
        var ticks: [Double] = []
        var k = first
        while Double(k) * step <= range.upperBound + step * 1e-9 && ticks.count < 20 {
            let decimals = max(0, -Int(floor(log10(step))))
            let scale = pow(10, Double(decimals))
            ticks.append((Double(k) * step * scale).rounded() / scale)
            k += 1
        }
        return ticks
    }

    /// A round upper bound for an axis that must show `value`.
    static func niceMaximum(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        return ([1.0, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].map { $0 * power }.first { $0 >= value * 1.0001 }) ?? 10 * power
    }

    static func tickText(_ value: Double) -> String {
        if abs(value - value.rounded()) < 1e-9 * max(1, abs(value)) && abs(value) < 1e9 { return String(Int64(value.rounded())) }
        guard abs(value) < 1 else { return TextTable.fixed(value, 1) }
        // Two decimals, or as many as a small tick needs (dollars per 1,000 words tick by 0.005).
        let decimals = (2...8).first { d in
            let scale = pow(10, Double(d))
            return abs((value * scale).rounded() / scale - value) < 1e-12
        } ?? 8
        return TextTable.fixed(value, decimals)
    }

    private static func span(_ range: ClosedRange<Double>) -> Double {
        range.upperBound > range.lowerBound ? range.upperBound - range.lowerBound : 1
    }

    private func span(_ range: ClosedRange<Double>) -> Double { Self.span(range) }

    /// A coordinate with at most two decimals, so the SVG stays small.
    private func n(_ value: Double) -> String { TextTable.fixed(value, value == value.rounded() ? 0 : 1) }

    private func escape(_ text: String) -> String { HTMLEscaper.escape(text) }
}
