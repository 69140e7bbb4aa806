import Sim

/// How a `HumanTypistSession`'s clock moved while it typed: every step, each either fixed
/// (a pause, a message's send delay and gap, a dictation) or one of the typing intervals it
/// drew, those draws in the order they were made, and how many steps came before each event.
///
/// Scaling a typist to a speed (`HumanTypist.scaledTrace`) changes only the medians of its
/// typing intervals, and no draw but those of the typing intervals depends on them: which
/// keys are typed, every slip, pick, pause, touch and hold, and every message's delays come
/// from streams of their own, and a typing interval never decides what is typed. So the
/// trace of the scaled typist is the same events with the typing intervals drawn again from
/// fresh streams in the same order and the clock moved by the same steps
/// (`HumanTypistSession.retimed`), without typing the text again.
struct TypingTimeline: Sendable {
    /// A typing interval drawn: from the context's lognormal, or through the rhythm model
    /// with a key pair's multiplier.
    enum Draw: Sendable, Equatable {
        case typing(context: Int32)
        case rhythm(context: Int32, multiplier: Double)
    }

    /// A move of the clock: by `nanos`, or, when `draw` is not -1, by that typing draw.
    struct Step: Sendable, Equatable {
        var nanos: Int64
        var draw: Int32
    }

    /// The typing intervals drawn, in the order drawn.
    var draws: [Draw] = []
    /// The standard normal of each uniform the lognormal typing draws took from the session's
    /// "timing" stream, in order (`Distribution.Lognormal.standardNormal`): the same numbers
    /// for a typist of any speed, so each further round only scales and exponentiates them.
    var normals: [Double] = []
    /// The "timing" stream after `normals`, for a slower typist who draws more intervals
    /// over the pause threshold again than the recording did (`nil`: a fresh stream is
    /// meant, and `normals` is empty).
    var timingAfterNormals: RandomStream?
    /// The standard normal innovation of each rhythm draw, in order, from the session's
    /// "rhythm" stream: one a draw, whatever the typist's speed.
    var innovations: [Double] = []
    /// The clock's steps, in order.
    var steps: [Step] = []
    /// For each event of the trace, the number of steps taken before it.
    var eventSteps: [Int32] = []
}
