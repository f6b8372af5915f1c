import Foundation

/// Counters, gauges and histograms with labels, rendered in the Prometheus text exposition
/// format (version 0.0.4). Label values must come from bounded sets (route templates, country
/// codes, gateway names): never raw paths or phone numbers.
public final class MetricsRegistry: @unchecked Sendable {
    // @unchecked: `families` and `collectors` are only touched with `lock` held.
    private let lock = NSLock()
    private var families: [MetricFamily] = []
    private var collectors: [@Sendable () -> Void] = []

    public init() {}

    public func counter(_ name: String, _ help: String, labels: [String] = []) -> Counter {
        register(Counter(name: name, help: help, labelNames: labels))
    }

    public func gauge(_ name: String, _ help: String, labels: [String] = []) -> Gauge {
        register(Gauge(name: name, help: help, labelNames: labels))
    }

    public func histogram(_ name: String, _ help: String, labels: [String] = [], buckets: [Double] = Histogram.defaultBuckets) -> Histogram {
        register(Histogram(name: name, help: help, labelNames: labels, buckets: buckets))
    }

    /// Runs before every render, to refresh gauges that are read on demand (outbox depth, circuits).
    public func onCollect(_ collector: @escaping @Sendable () -> Void) {
        lock.lock()
        collectors.append(collector)
        lock.unlock()
    }

    private func register<M: MetricFamily>(_ metric: M) -> M {
        lock.lock()
        families.append(metric)
        lock.unlock()
        return metric
    }

    /// The exposition text.
    public func render() -> String {
        lock.lock()
        let snapshot = families
        let hooks = collectors
        lock.unlock()
        for hook in hooks { hook() }
        var out = ""
        for family in snapshot { family.render(into: &out) }
        return out
    }

    /// `text/plain; version=0.0.4; charset=utf-8`.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"
}

protocol MetricFamily: AnyObject {
    func render(into out: inout String)
}


/// Shared storage of the metric kinds: label values → value.
public class LabeledValues<Value>: @unchecked Sendable {
    // @unchecked: `values` is only touched with `lock` held; everything else is immutable.
    let name: String
    let help: String
    let labelNames: [String]
    let lock = NSLock()
    var values: [[String]: Value] = [:]

    init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
    }

    func labelText(_ values: [String], extra: (String, String)? = nil) -> String {
        var pairs = zip(labelNames, values).map { ($0, $1) }
        if let extra { pairs.append(extra) }
        if pairs.isEmpty { return "" }
        return "{" + pairs.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}"
    }

    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    static func format(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

extension LabeledValues where Value == Double {
    /// Every label set's current value, in a stable order (for pages that show a metric).
    public func samples() -> [(labels: [String], value: Double)] {
        lock.lock()
        let snapshot = values
        lock.unlock()
        return snapshot.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { ($0, snapshot[$0]!) }
    }

    /// HELP, TYPE and one sample line per label set, label sets in a stable order.
    func renderSamples(type: String, into out: inout String) {
        lock.lock()
        let snapshot = values
        lock.unlock()
        out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        for key in snapshot.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            out += "\(name)\(labelText(key)) \(Self.format(snapshot[key]!))\n"
        }
    }
}

/// A monotonically increasing count.
public final class Counter: LabeledValues<Double>, MetricFamily, @unchecked Sendable {
    // @unchecked: LabeledValues' lock guards its values; this subclass adds only immutable state.
    public func increment(_ labels: [String] = [], by amount: Double = 1) {
        lock.lock()
        values[labels, default: 0] += amount
        lock.unlock()
    }

    func render(into out: inout String) { renderSamples(type: "counter", into: &out) }
}

/// A value that goes up and down.
public final class Gauge: LabeledValues<Double>, MetricFamily, @unchecked Sendable {
    // @unchecked: LabeledValues' lock guards its values; this subclass adds only immutable state.
    public func set(_ value: Double, _ labels: [String] = []) {
        lock.lock()
        values[labels] = value
        lock.unlock()
    }

    func render(into out: inout String) { renderSamples(type: "gauge", into: &out) }
}

/// Observations in cumulative buckets, with sum and count.
public final class Histogram: LabeledValues<Histogram.Cells>, MetricFamily, @unchecked Sendable {
    // @unchecked: LabeledValues' lock guards its values; this subclass adds only immutable state.
    public static let defaultBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    let buckets: [Double]

    public struct Cells {
        var counts: [Double]
        var sum: Double = 0
        var count: Double = 0
    }

    init(name: String, help: String, labelNames: [String], buckets: [Double]) {
        self.buckets = buckets.sorted()
        super.init(name: name, help: help, labelNames: labelNames)
    }

    public func observe(_ value: Double, _ labels: [String] = []) {
        lock.lock()
        var cells = values[labels] ?? Cells(counts: Array(repeating: 0, count: buckets.count))
        if let index = buckets.firstIndex(where: { value <= $0 }) { cells.counts[index] += 1 }
        cells.sum += value
        cells.count += 1
        values[labels] = cells
        lock.unlock()
    }

    func render(into out: inout String) {
        lock.lock()
        let snapshot = values
        lock.unlock()
        out += "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        for key in snapshot.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let cells = snapshot[key]!
            var cumulative = 0.0
            for (bound, count) in zip(buckets, cells.counts) {
                cumulative += count
                out += "\(name)_bucket\(labelText(key, extra: ("le", Self.format(bound)))) \(Self.format(cumulative))\n"
            }
            out += "\(name)_bucket\(labelText(key, extra: ("le", "+Inf"))) \(Self.format(cells.count))\n"
            out += "\(name)_sum\(labelText(key)) \(cells.sum)\n"
            out += "\(name)_count\(labelText(key)) \(Self.format(cells.count))\n"
        }
    }
}
