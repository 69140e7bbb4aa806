import Sim

extension HumanTypistSession {
    /// The times, in nanoseconds, of the events of a session that recorded `timeline`, as a
    /// session of `profile` (the recording typist with other typing medians:
    /// `TypistProfile.scaled(by:)`) seeded with `seed` types them: each typing interval drawn
    /// again, in the order the recording drew them, from this session's fresh streams; every
    /// other step of the clock as recorded. `retimed(_:at:)` builds the events.
    mutating func eventTimes(of timeline: TypingTimeline) -> [Int64] {
        var fresh = timeline
        fresh.normals = []
        fresh.timingAfterNormals = timing
        fresh.innovations = []
        for case .rhythm in timeline.draws { fresh.innovations.append(StandardNormal.sample(&rhythmDraws)) }
        return fresh.eventTimes(of: profile)
    }

    /// `events` at `times` (`eventTimes(of:)`), a key's or backspace's hold kept. Equal, event
    /// for event, to synthesising the script again with the session's profile
    /// (`TypingTimelineTests`), at the cost of the typing draws alone.
    static func retimed(_ events: consuming [TraceEvent], at times: [Int64]) -> [TraceEvent] {
        precondition(times.count == events.count, "a time for every event")
        // In place: the caller's array when it hands it over, else one copy.
        var retimed = events
        for index in retimed.indices {
            let time = SimTime(nanoseconds: times[index])
            let held = retimed[index].time
            switch retimed[index].kind {
            case let .key(text, touchUp?, point):
                retimed[index].kind = .key(text: text, touchUp: time + (touchUp - held), point: point)
            case let .backspace(touchUp?, point):
                retimed[index].kind = .backspace(touchUp: time + (touchUp - held), point: point)
            default:
                break
            }
            retimed[index].time = time
        }
        return retimed
    }
}
