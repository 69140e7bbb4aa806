import Foundation

/// A small chart drawn as inline SVG: axes with round ticks, lines, bars and points, and
/// vertical reference lines (budgets). No scripts, no fonts to fetch: the HTML report must
/// read the same offline and with scripts disabled.
struct SVGChart {
    /// What is drawn.
    enum Mark {
        /// A polyline through the points, in data coordinates.
        case line(points: [(x: Double, y: Double)], color: String, label: String)
        /// Bars from `x0` to `x1`, `y` high, drawn translucent so that series overlap legibly.
        case bars(bins: [(x0: Double, x1: Double, y: Double)], color: String, label: String)
        /// Points; `emphasised` ones are drawn larger and labelled.
        case points(points: [(x: Double, y: Double, label: String, emphasised: Bool)], color: String, label: String)
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
    /// Whether the legend sits at the bottom right of the plot rather than the top right
    /// (a CDF fills the top right).
    var legendAtBottom = false
    var width = 640.0
    var height = 300.0

    private let left = 64.0, right = 16.0, top = 28.0, bottom = 46.0

    /// The colours of successive series: distinguishable, and legible on white.
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"]

    func render() -> String {
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        func sx(_ x: Double) -> Double { left + (x - xRange.lowerBound) / span(xRange) * plotWidth }
        func sy(_ y: Double) -> Double { top + plotHeight - (y - yRange.lowerBound) / span(yRange) * plotHeight }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\" height=\"\(n(height))\" role=\"img\" aria-label=\"\(escape(title))\">"
        svg += "<title>\(escape(title))</title>"
        svg += "<text x=\"\(n(left))\" y=\"16\" class=\"chart-title\">\(escape(title))</text>"
        // Grid and ticks.
        for tick in Self.ticks(xRange) {
            let x = sx(tick)
            svg += "<line x1=\"\(n(x))\" y1=\"\(n(top))\" x2=\"\(n(x))\" y2=\"\(n(top + plotHeight))\" class=\"grid\"/>"
            svg += "<text x=\"\(n(x))\" y=\"\(n(top + plotHeight + 16))\" text-anchor=\"middle\" class=\"tick\">\(Self.tickText(tick))</text>"
        }
        for tick in Self.ticks(yRange) {
            let y = sy(tick)
            svg += "<line x1=\"\(n(left))\" y1=\"\(n(y))\" x2=\"\(n(left + plotWidth))\" y2=\"\(n(y))\" class=\"grid\"/>"
            let text = yAsPercent ? Self.tickText(tick * 100) + "%" : Self.tickText(tick)
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
            case .line(let points, let color, let label):
                let clipped = points.filter { xRange.contains($0.x) }
                guard !clipped.isEmpty else { continue }
                let path = clipped.map { "\(n(sx($0.x))),\(n(sy(min(max($0.y, yRange.lowerBound), yRange.upperBound))))" }.joined(separator: " ")
                svg += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.8\"><title>\(escape(label))</title></polyline>"
            case .points(let points, let color, let label):
                svg += "<g fill=\"\(color)\"><title>\(escape(label))</title>"
                // Labels go beside their point where they overlap no other label; a label
                // with no free place is left to the point's tooltip.
                var placed: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
                for point in points {
                    let x = sx(point.x), y = sy(point.y)
                    svg += "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(point.emphasised ? 5 : 3)\"\(point.emphasised ? "" : " fill-opacity=\"0.45\"")><title>\(escape(point.label))</title></circle>"
                    guard point.emphasised else { continue }
                    let textWidth = Double(point.label.count) * 5.6, textHeight = 11.0
                    let candidates: [(x: Double, y: Double, anchor: String)] = [
                        (x + 7, y - 6, "start"), (x + 7, y + 14, "start"), (x - 7, y - 6, "end"), (x - 7, y + 14, "end"),
                    ]
                    for candidate in candidates {
                        let x0 = candidate.anchor == "start" ? candidate.x : candidate.x - textWidth
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
        // Legend, inside the plot at the right.
        let labelled = marks.filter { mark in
            switch mark { case .line(_, _, let l), .bars(_, _, let l), .points(_, _, let l): !l.isEmpty }
        }
        var legendY = legendAtBottom ? top + plotHeight - 8 - Double(labelled.count - 1) * 15 : top + 14
        for mark in labelled {
            let (color, label): (String, String)
            switch mark {
            case .line(_, let c, let l), .bars(_, let c, let l), .points(_, let c, let l): (color, label) = (c, l)
            }
            guard !label.isEmpty else { continue }
            let x = left + plotWidth - 8
            svg += "<rect x=\"\(n(x - 10))\" y=\"\(n(legendY - 9))\" width=\"10\" height=\"10\" fill=\"\(color)\"/>"
            svg += "<text x=\"\(n(x - 14))\" y=\"\(n(legendY))\" text-anchor=\"end\" class=\"legend\">\(escape(label))</text>"
            legendY += 15
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
