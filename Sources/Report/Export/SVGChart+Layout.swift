import Foundation

extension SVGChart {
    /// One entry of a chart's legend.
    struct LegendItem {
        var label: String
        var color: String
        /// Drawn as a line (a series), not a swatch (bars, points).
        var isLine: Bool
        var dash: String?
    }

    /// Where the legend goes: its entries in columns under the x-axis label, as many columns
    /// as fit the plot's width, and the height it adds to the chart.
    func legendLayout(plotWidth: Double) -> (items: [LegendItem], rows: Int, columnWidth: Double, height: Double) {
        let items: [LegendItem] = marks.compactMap { mark in
            switch mark {
            case .line(_, let color, let label, let dash): label.isEmpty ? nil : LegendItem(label: label, color: color, isLine: true, dash: dash)
            case .bars(_, let color, let label), .points(_, let color, let label):
                label.isEmpty ? nil : LegendItem(label: label, color: color, isLine: false, dash: nil)
            case .whiskers: nil
            }
        }
        guard !items.isEmpty else { return ([], 1, plotWidth, 0) }
        // About 5.6 px a character at the legend's 10 px font, and the swatch before it.
        let widest = items.map { Double($0.label.count) * 5.6 + 28 }.max()!
        let columns = max(1, min(items.count, Int(plotWidth / widest)))
        let rows = (items.count + columns - 1) / columns
        return (items, rows, plotWidth / Double(columns), Double(rows) * 15 + 6)
    }

    /// The powers of ten inside `range` (a log axis's ticks); the range's ends when it holds
    /// fewer than two.
    static func decades(_ range: ClosedRange<Double>) -> [Double] {
        let low = Int(ceil(log10(range.lowerBound) - 1e-9)), high = Int(floor(log10(range.upperBound) + 1e-9))
        return low <= high ? (low...high).map { pow(10, Double($0)) } : [range.lowerBound, range.upperBound]
    }

    /// A share as a percentage with as many decimals as it needs: 100%, 1%, 0.1%, 0.01%.
    static func percentText(_ share: Double) -> String {
        let percent = share * 100
        if percent >= 1 || percent == 0 { return tickText(percent) + "%" }
        let decimals = max(1, Int(ceil(-log10(percent) - 1e-9)))
        return TextTable.fixed(percent, decimals) + "%"
    }

    /// A round range that shows every value of `values` with some room around them, for a
    /// chart sized to its points rather than starting at zero; from zero when the values
    /// come near it.
    static func paddedRange(_ values: [Double]) -> ClosedRange<Double> {
        guard let low = values.min(), let high = values.max(), low.isFinite, high.isFinite else { return 0...1 }
        let pad = max((high - low) * 0.08, abs(high) * 0.02, 1e-9)
        var lower = low - pad, upper = high + pad
        if low >= 0 && lower < 0 || low >= 0 && lower < (high - low) * 0.5 { lower = 0 }
        let step = ticks(lower...upper).count > 1 ? ticks(lower...upper)[1] - ticks(lower...upper)[0] : pad
        lower = (lower / step).rounded(.down) * step
        upper = (upper / step).rounded(.up) * step
        return lower...max(upper, lower + step)
    }
}
