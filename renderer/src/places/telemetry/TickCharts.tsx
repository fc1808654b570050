import type { ReactElement } from 'react';
import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Panel } from '../../components/index.js';
import { chartPoints, providerNames, type Tick } from './ticks.js';

const PROVIDER_COLOURS = ['#2c6b66', '#b86e00', '#5b4bb7', '#a23b72'];

/** A panel holding one chart; the chart is an image to assistive technology, described by `label`. */
function ChartPanel({ title, label, children }: { title: string; label: string; children: ReactElement }): ReactElement {
  return (
    <Panel title={title}>
      <div className="telemetry-chart" role="img" aria-label={label}>
        <ResponsiveContainer width="100%" height={240}>
          {children}
        </ResponsiveContainer>
      </div>
    </Panel>
  );
}

/** Files read vs unchanged and parts written per tick; and each provider's duration per tick. */
export function TickCharts({ ticks }: { ticks: readonly Tick[] }): ReactElement {
  const points = chartPoints(ticks);
  const providers = providerNames(ticks);
  return (
    <div className="telemetry-charts" data-testid="tick-charts">
      <ChartPanel title="Files and parts per tick" label="Files read and unchanged, and parts written, per sweep tick">
        <ComposedChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" fontSize={12} />
          <YAxis yAxisId="files" allowDecimals={false} fontSize={12} />
          <YAxis yAxisId="parts" orientation="right" allowDecimals={false} fontSize={12} />
          <Tooltip />
          <Legend />
          <Bar yAxisId="files" dataKey="read" name="files read" stackId="files" fill="#2c6b66" isAnimationActive={false} />
          <Bar yAxisId="files" dataKey="unchanged" name="files unchanged" stackId="files" fill="#9fb8b5" isAnimationActive={false} />
          <Line yAxisId="parts" dataKey="partsWritten" name="parts written" stroke="#b86e00" dot isAnimationActive={false} />
        </ComposedChart>
      </ChartPanel>
      <ChartPanel title="Duration per provider" label="Duration of each provider per sweep tick, in milliseconds">
        <BarChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" fontSize={12} />
          <YAxis unit=" ms" fontSize={12} />
          <Tooltip />
          <Legend />
          {providers.map((provider, index) => (
            <Bar key={provider} dataKey={`ms_${provider}`} name={provider} fill={PROVIDER_COLOURS[index % PROVIDER_COLOURS.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ChartPanel>
    </div>
  );
}
