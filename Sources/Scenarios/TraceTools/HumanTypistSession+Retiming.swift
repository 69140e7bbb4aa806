import Sim

extension HumanTypistSession {
    /// `events`, typed by a session that recorded `timeline`, as a session of `profile` (the
    /// recording typist with other typing medians: `TypistProfile.scaled(by:)`) seeded with
    /// `seed` types them: each typing interval drawn again, in the order the recording drew
    /// them, from this session's fresh streams; every other step of the clock as recorded; a
    /// key's or backspace's hold kept. Equal, event for event, to synthesising the script
    /// again with `profile` (`TypingTimelineTests`), at the cost of the typing draws alone.
    mutating func retimed(_ events: [TraceEvent], timeline: TypingTimeline) -> [TraceEvent] {
        precondition(timeline.eventSteps.count == events.count, "a timeline is retimed with the events it recorded")
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
        var retimed = events
        for index in retimed.indices {
            let time = SimTime(nanoseconds: clock[Int(timeline.eventSteps[index])])
            let old = retimed[index].time
            retimed[index].time = time
            switch retimed[index].kind {
            case let .key(text, touchUp?, point):
                retimed[index].kind = .key(text: text, touchUp: time + (touchUp - old), point: point)
            case let .backspace(touchUp?, point):
                retimed[index].kind = .backspace(touchUp: time + (touchUp - old), point: point)
            default:
                break
            }
        }
        return retimed
    }
}
