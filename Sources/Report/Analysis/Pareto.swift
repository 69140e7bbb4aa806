/// The Pareto front of points where both coordinates are costs (smaller is better).
public enum Pareto {
    /// For each point, whether no other point is at least as good on both axes and better
    /// on one. Equal points are all on the front. O(n log n).
    public static func front(_ points: [(x: Double, y: Double)]) -> [Bool] {
        let order = points.indices.sorted { points[$0].x != points[$1].x ? points[$0].x < points[$1].x : points[$0].y < points[$1].y }
        var onFront = Array(repeating: false, count: points.count)
        // The smallest y among points with a strictly smaller x than the current group.
        var bestY = Double.infinity
        var start = 0
        while start < order.count {
            var end = start
            while end < order.count && points[order[end]].x == points[order[start]].x { end += 1 }
            // Sorted by y within the group: the first has the group's smallest y.
            let groupBestY = points[order[start]].y
            if groupBestY < bestY {
                for k in start..<end where points[order[k]].y == groupBestY { onFront[order[k]] = true }
            }
            bestY = min(bestY, groupBestY)
            start = end
        }
        return onFront
    }
}
