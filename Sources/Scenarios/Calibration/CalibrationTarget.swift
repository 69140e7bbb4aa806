import Sim

/// What a calibrated distribution replaces in a scenario: a kind of keyboard work's cost,
/// or one of the other cost distributions a scenario configures.
public enum CalibrationTarget: Sendable, Hashable, Comparable {
    /// `keyboard.work.<kind>.cost`.
    case work(KeyboardWork)
    /// `network.roundTrip`.
    case networkRoundTrip
    /// `network.bad.roundTrip`.
    case badNetworkRoundTrip
    /// `cloud.service`.
    case cloudService

    /// Every target, in the order the overlay lists them.
    public static let all: [CalibrationTarget] = KeyboardWork.allCases.map { .work($0) }
        + [.networkRoundTrip, .badNetworkRoundTrip, .cloudService]

    /// The target named `name`: a work kind ("lookup") or a field path ("cloud.service").
    public init?(name: String) {
        guard let target = Self.all.first(where: { $0.name == name }) else { return nil }
        self = target
    }

    /// The name `--map` uses: the work kind, or the field path of the others.
    public var name: String {
        switch self {
        case .work(let kind): kind.rawValue
        case .networkRoundTrip: "network.roundTrip"
        case .badNetworkRoundTrip: "network.bad.roundTrip"
        case .cloudService: "cloud.service"
        }
    }

    /// The field path of the distribution in a scenario file.
    public var fieldPath: [String] {
        switch self {
        case .work(let kind): ["keyboard", "work", kind.rawValue, "cost"]
        default: name.split(separator: ".").map(String.init)
        }
    }

    /// Targets order as `all` lists them.
    public static func < (a: CalibrationTarget, b: CalibrationTarget) -> Bool {
        all.firstIndex(of: a)! < all.firstIndex(of: b)!
    }
}
