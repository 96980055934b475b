"use client";

import type { CapacityChart as ChartData } from "@board/services";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/** Colours that stay apart for the common colour-vision deficiencies (Okabe-Ito). */
const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"];

function bucketLabel(iso: string, bucketSeconds: number): string {
  const date = new Date(iso);
  const time = date.toISOString().slice(11, 16);
  return bucketSeconds >= 3_600 ? `${date.toISOString().slice(5, 10)} ${time}` : time;
}

/**
 * A line chart drawn in the browser by the bundled recharts (no script from elsewhere, so it runs
 * under the site's nonce policy), hidden from assistive technology, which reads the same figures
 * from the table below it.
 */
export function CapacityChart({ chart }: { chart: ChartData }) {
  const rows = chart.buckets.map((at, index) => ({ at: bucketLabel(at, chart.bucket_seconds), ...Object.fromEntries(chart.lines.map((line) => [line.name, line.values[index] ?? 0])) }));
  const captionId = `chart-${chart.id}-caption`;
  return (
    <figure className="capacity-chart" aria-labelledby={captionId}>
      <figcaption id={captionId}>
        {chart.title} <span className="capacity-unit">({chart.unit}, UTC)</span>
      </figcaption>
      {chart.lines.length === 0 ? (
        <p>Nothing recorded in this period.</p>
      ) : (
        <>
          <div className="capacity-plot" aria-hidden="true" data-testid={`chart-${chart.id}`}>
            <ResponsiveContainer width="100%" height={220}>
              {/* No keyboard layer: the table below is the accessible view, and a focusable chart inside aria-hidden would trap focus. */}
              <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 8, left: 0 }} accessibilityLayer={false}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="at" minTickGap={24} />
                <YAxis allowDecimals={false} width={56} />
                <Tooltip />
                <Legend />
                {chart.lines.map((line, index) => (
                  <Line key={line.name} type="monotone" dataKey={line.name} stroke={PALETTE[index % PALETTE.length]} dot={false} isAnimationActive={false} />
                ))}
              </LineChart>
            </ResponsiveContainer>
          </div>
          <div className="visually-hidden">
            <table>
              <caption>{chart.title}: figures per period</caption>
              <thead>
                <tr>
                  <th scope="col">Period starting (UTC)</th>
                  {chart.lines.map((line) => (
                    <th scope="col" key={line.name}>
                      {line.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {chart.buckets.map((at, index) => (
                  <tr key={at}>
                    <th scope="row">{bucketLabel(at, chart.bucket_seconds)}</th>
                    {chart.lines.map((line) => (
                      <td key={line.name}>{line.values[index] ?? 0}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </figure>
  );
}
