/// The named activity curves of a fleet's day (`fleet.day.activity`): relative activity in
/// each hour of the day, 0…23. The figures and their sources are in docs/models.md
/// ("A fleet's day").
public enum FleetActivity: String, Sendable, CaseIterable {
    /// A messaging keyboard's day: a night trough at 04:00, a morning rise, a plateau through
    /// the working day and an evening peak at 21:00 (peak ÷ mean ≈ 1.6). An assumption shaped
    /// after the diurnal cycles of mobile communication (Aledavood, Lehmann and Saramäki,
    /// Frontiers in Physics 3:73, 2015); no hourly table of keyboard use was found.
    case messaging
    /// The same activity in every hour.
    case flat
    /// One hour at the messaging curve's peak rate: the day's span is that hour alone (a load
    /// test of the busiest hour).
    case busyHour = "busy-hour"

    /// The curve's 24 hourly weights (the busy hour's are the messaging curve's).
    public var weights: [Double] {
        switch self {
        case .messaging, .busyHour: Self.messagingWeights
        case .flat: Array(repeating: 1, count: 24)
        }
    }

    /// The messaging curve, hours 0…23, as relative weights.
    static let messagingWeights: [Double] = [2.5, 1.5, 0.9, 0.6, 0.5, 0.8, 1.8, 3.3, 4.4, 4.8, 5.0, 5.2,
                                             5.6, 5.4, 5.1, 5.1, 5.3, 5.7, 6.0, 6.2, 6.6, 6.8, 5.8, 4.2]

    /// The hour of the day with the most activity (the earliest on a tie).
    public static func peakHour(of weights: [Double]) -> Int {
        weights.indices.max { weights[$0] < weights[$1] || (weights[$0] == weights[$1] && $0 > $1) }!
    }
}
