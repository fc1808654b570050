import type { ReactElement } from 'react';
import { Bar, BarChart, CartesianGrid, ComposedChart, Label, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Panel, providerLabel } from '../../components/index.js';
import { axisTime, chartPoints, providerNames, type Tick } from './ticks.js';

const PROVIDER_COLOURS = ['#2c6b66', '#b86e00', '#5b4bb7', '#a23b72'];
const AXIS = { fontSize: 12 };
/**
 * A value axis's title, turned along the axis and centred on it: the anchor recharts picks for an
 * inside position ("end" on the right) is for level text, and turned it ran past the chart's top edge.
 */
const AXIS_TITLE = { ...AXIS, textAnchor: 'middle' } as const;

/** A panel holding one chart; the chart is an image to assistive technology, described by `label`. */
function ChartPanel({ title, label, children }: { title: string; label: string; children: ReactElement }): ReactElement {
  return (
    <Panel title={title}>
      <div className="telemetry-chart" role="img" aria-label={label}>
        <ResponsiveContainer width="100%" height={260}>
          {children}
        </ResponsiveContainer>
      </div>
    </Panel>
  );
}

function TimeAxis(): ReactElement {
  return (
    <XAxis dataKey="at" type="category" tickFormatter={(at: number) => axisTime(at)} {...AXIS} height={44}>
      <Label value="Time of the check" position="insideBottom" offset={0} {...AXIS} />
    </XAxis>
  );
}

/** Scheduled checks only (imports on request would dwarf them): files and new messages per check, and each agent's time. */
export function TickCharts({ ticks }: { ticks: readonly Tick[] }): ReactElement {
  const points = chartPoints(ticks);
  const providers = providerNames(ticks);
  return (
    <div className="telemetry-charts" data-testid="tick-charts">
      <ChartPanel title="Files and new messages per check" label="Files read and unchanged, and new messages, per scheduled check">
        <ComposedChart data={points} margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <TimeAxis />
          <YAxis yAxisId="files" allowDecimals={false} {...AXIS}>
            <Label value="Files" angle={-90} position="insideLeft" {...AXIS_TITLE} />
          </YAxis>
          <YAxis yAxisId="messages" orientation="right" allowDecimals={false} width={72} {...AXIS}>
            <Label value="New messages" angle={90} position="insideRight" {...AXIS_TITLE} />
          </YAxis>
          <Tooltip labelFormatter={(at) => axisTime(Number(at))} />
          <Legend />
          <Bar yAxisId="files" dataKey="read" name="files read" stackId="files" fill="#2c6b66" isAnimationActive={false} />
          <Bar yAxisId="files" dataKey="unchanged" name="files unchanged" stackId="files" fill="#9fb8b5" isAnimationActive={false} />
          <Line yAxisId="messages" dataKey="messages" name="new messages" stroke="#b86e00" dot isAnimationActive={false} />
        </ComposedChart>
      </ChartPanel>
      <ChartPanel title="Time per agent per check" label="How long each agent's folders took per scheduled check, in milliseconds">
        <BarChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <TimeAxis />
          <YAxis {...AXIS}>
            <Label value="Milliseconds" angle={-90} position="insideLeft" {...AXIS_TITLE} />
          </YAxis>
          <Tooltip labelFormatter={(at) => axisTime(Number(at))} />
          <Legend />
          {providers.map((provider, index) => (
            <Bar key={provider} dataKey={`ms_${provider}`} name={providerLabel(provider)} stackId="ms" fill={PROVIDER_COLOURS[index % PROVIDER_COLOURS.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ChartPanel>
    </div>
  );
}
