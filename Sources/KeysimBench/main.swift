import Foundation
import Sim

// `make bench`: one line per benchmark, `bench <name> <value> <unit>`. Each figure is the
// median of several repetitions in this one process, so a noisy neighbour moves it less.

/// Seconds of wall time `body` takes.
func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func report(_ name: String, _ value: Double, _ unit: String) {
    print("bench \(name) \(Int(value.rounded())) \(unit)")
}

/// The hold model: 1,000 pending timers; pop the earliest, schedule a new one at a random
/// later time. Measures the event queue and the engine clock together.
func engineEventsPerSecond() -> Double {
    let pending = 1_000
    let events = 10_000_000
    var rates: [Double] = []
    for repetition in 0..<5 {
        var engine = Engine<Int>()
        var rng = RandomStream(seed: 1, replication: repetition, name: "bench.engine")
        for i in 0..<pending { engine.schedule(i, at: SimTime(nanoseconds: Int64(rng.nextUInt64() % 1_000_000))) }
        var checksum = 0
        let elapsed = seconds {
            for _ in 0..<events {
                let event = engine.next()!
                checksum &+= event
                engine.schedule(event, after: SimDuration(nanoseconds: Int64(rng.nextUInt64() % 1_000_000) + 1))
            }
        }
        precondition(checksum != 0 && engine.pendingCount == pending)
        rates.append(Double(events) / elapsed)
    }
    return median(rates)
}

report("engine_events_per_s", engineEventsPerSecond(), "events/s")
