/// One replication's timeline as the trace exporters draw it: tracks of slices and instants,
/// counters, and the flows that link a key to its suggestions and an edit to its verdict.
///
/// It is read from the report's rows of one run (`Timeline.read`); the Chrome trace
/// (`ChromeTraceExporter`) and the Perfetto trace (`PerfettoExporter`) render the same
/// timeline, so both show the same tracks, slices, instants and flows.
struct Timeline {
    /// A named value attached to a slice (a report column, or a figure derived from one).
    struct Arg: Equatable {
        /// Its name, such as `key_index` or `wait_ns`.
        var name: String
        /// Its value; `NULL` values are left out of both traces.
        var value: SQLValue
    }

    /// What a slice stands for, so that flows can find it.
    enum Link: Hashable {
        /// The key's slice, touch to inserted (`keys.key_index`).
        case key(Int64)
        /// A task run by an executor (`tasks.task_id`).
        case task(Int64)
        /// The arming of the debounce timer that fired and sent a request (`requests.request_id`).
        case debounce(Int64)
        /// A cloud request in flight (`requests.request_id`).
        case request(Int64)
        /// An underline, shown to closed (`underlines.underline_id`).
        case underline(Int64)
        /// The cloud's verdict on an underline (`underlines.underline_id`).
        case verdict(Int64)

        /// Where the link's kind sits in a chain of cause and effect: of two steps at one
        /// instant, the cause is written first, so a flow never runs backwards.
        var causalRank: Int {
            switch self {
            case .key: 0
            case .task: 1
            case .debounce: 2
            case .request: 3
            case .underline: 4
            case .verdict: 5
            }
        }
    }

    /// A slice's place in one flow.
    struct FlowStep: Equatable {
        /// Where in the flow.
        enum Role: Equatable {
            /// The flow starts here.
            case start
            /// The flow passes through.
            case step
            /// The flow ends here.
            case end
        }

        /// The flow's identifier, unique in the trace (from 1).
        var id: UInt64
        /// What the flow links, such as `key → suggestions`.
        var name: String
        var role: Role
        /// The step's place in its flow, from 0.
        var position: Int
    }

    /// An interval on a track, or a moment when `isInstant`.
    struct Slice {
        var startNs: Int64
        var endNs: Int64
        var name: String
        var category: String
        var args: [Arg]
        /// A moment rather than an interval (`endNs == startNs`).
        var isInstant = false
        /// What flows know this slice as.
        var link: Link?
        /// The flows through this slice, in the order they were attached.
        var flows: [FlowStep] = []

        init(startNs: Int64, endNs: Int64, name: String, category: String, args: [Arg] = [], isInstant: Bool = false,
             link: Link? = nil) {
            self.startNs = startNs
            self.endNs = endNs
            self.name = name
            self.category = category
            self.args = args
            self.isInstant = isInstant
            self.link = link
        }
    }

    /// A named track: a thread of the keyboard (and core), or a timeline of items of one kind.
    struct Track {
        /// Whether the track is an executor's thread (synchronous work) or an async track.
        enum Kind: Equatable {
            case thread
            case async
        }

        var name: String
        var kind: Kind
        var slices: [Slice]
    }

    /// A value over time, one sample where it changes.
    struct Counter {
        /// A value from a time on.
        struct Sample: Equatable {
            var timeNs: Int64
            var value: Double
        }

        var name: String
        /// The unit shown beside the value, such as `MB` or `tasks`.
        var unit: String
        /// Whether values are whole numbers (a count) rather than measurements.
        var isCount: Bool
        var samples: [Sample]
    }

    /// The run drawn.
    var runID: Int64
    /// The process's name: `keysim run N: scenario / policy, replication R, trace T`.
    var processName: String
    /// The run's trace file and seed, for the trace's metadata.
    var tracePath: String
    var seed: Int64
    /// Tracks in display order; empty ones are kept out of both traces.
    var tracks: [Track] = []
    /// Counters in display order.
    var counters: [Counter] = []

    /// Whether any track has something to draw.
    var hasSlices: Bool { tracks.contains { !$0.slices.isEmpty } }

    /// Spreads slices over lanes so that none overlaps another in its lane: each goes to the
    /// first lane whose last item has ended, in start order.
    ///
    /// An item occupies at least one nanosecond, so no two items of a lane start at the same
    /// instant: a flow event of the Chrome trace binds to the item that starts at its time.
    static func lanes(_ slices: [Slice]) -> [[Slice]] {
        let sorted = slices.enumerated().sorted {
            ($0.element.startNs, $0.element.endNs, $0.offset) < ($1.element.startNs, $1.element.endNs, $1.offset)
        }
        var lanes: [[Slice]] = []
        var ends: [Int64] = []
        for (_, slice) in sorted {
            let occupiedEnd = max(slice.endNs, slice.startNs + 1)
            if let lane = ends.firstIndex(where: { $0 <= slice.startNs }) {
                lanes[lane].append(slice)
                ends[lane] = occupiedEnd
            } else {
                lanes.append([slice])
                ends.append(occupiedEnd)
            }
        }
        return lanes
    }
}
