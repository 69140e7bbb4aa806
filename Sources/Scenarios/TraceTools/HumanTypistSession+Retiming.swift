import Sim

extension HumanTypistSession {
    /// The times, in nanoseconds, of the events of a session that recorded `timeline`, as a
    /// session of `profile` (the recording typist with other typing medians:
    /// `TypistProfile.scaled(by:)`) seeded with `seed` types them: each typing interval drawn
    /// again, in the order the recording drew them, from this session's fresh streams; every
    /// other step of the clock as recorded. `retimed(_:at:)` builds the events.
    mutating func eventTimes(of timeline: TypingTimeline) -> [Int64] {
        var drawn: [Int64] = []
        drawn.reserveCapacity(timeline.draws.count)
        for draw in timeline.draws {
            switch draw {
            case .typing(let context):
                drawn.append(typing(typingDistributions[Int(context)]).nanoseconds)
            case let .rhythm(context, multiplier):
                drawn.append(rhythmTyping(timings[Int(context)], multiplier: multiplier).nanoseconds)
            }
        }
        // The clock after each number of steps: integer nanoseconds, added in the recorded order.
        var clock: [Int64] = []
        clock.reserveCapacity(timeline.steps.count + 1)
        var now: Int64 = 0
        clock.append(now)
        for step in timeline.steps {
            now += step.draw < 0 ? step.nanos : drawn[Int(step.draw)]
            clock.append(now)
        }
        return timeline.eventSteps.map { clock[Int($0)] }
    }

    /// `events` at `times` (`eventTimes(of:)`), a key's or backspace's hold kept. Equal, event
    /// for event, to synthesising the script again with the session's profile
    /// (`TypingTimelineTests`), at the cost of the typing draws alone.
    static func retimed(_ events: [TraceEvent], at times: [Int64]) -> [TraceEvent] {
        precondition(times.count == events.count, "a time for every event")
        var retimed: [TraceEvent] = []
        retimed.reserveCapacity(events.count)
        for (event, nanos) in zip(events, times) {
            let time = SimTime(nanoseconds: nanos)
            switch event.kind {
            case let .key(text, touchUp?, point):
                retimed.append(TraceEvent(time: time, kind: .key(text: text, touchUp: time + (touchUp - event.time), point: point)))
            case let .backspace(touchUp?, point):
                retimed.append(TraceEvent(time: time, kind: .backspace(touchUp: time + (touchUp - event.time), point: point)))
            default:
                retimed.append(TraceEvent(time: time, kind: event.kind))
            }
        }
        return retimed
    }
}
