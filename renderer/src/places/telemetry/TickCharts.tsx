import { useCallback, useEffect, useState, type ReactElement } from 'react';
import { Bar, BarChart, CartesianGrid, ComposedChart, Label, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Panel, providerLabel } from '../../components/index.js';
import { axisLabeller, axisTime, chartPoints, providerNames, type Tick } from './ticks.js';

/**
 * The charts' colours, from the theme (telemetry.css's --chart-* on `.telemetry-charts`, which follow
 * the light and dark themes). recharts draws with SVG attributes, where no var() is read, so they are
 * read once drawn and again whenever the system's theme changes: written as fixed light colours, the
 * grid and axes were bright dashes and the pale "unchanged" bars glared in dark mode.
 */
interface ChartColours {
  grid: string;
  axis: string;
  text: string;
  read: string;
  unchanged: string;
  messages: string;
  surface: string;
  agents: string[];
}

/** Before the first read (one frame): the light theme's. */
const LIGHT: ChartColours = { grid: '#dde1e7', axis: '#c6ccd5', text: '#586373', read: '#2c6b66', unchanged: '#9fb8b5', messages: '#b86e00', surface: '#ffffff', agents: ['#2c6b66', '#b86e00', '#5b4bb7', '#a23b72'] };

function coloursOf(element: Element): ChartColours {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    grid: read('--chart-grid', LIGHT.grid),
    axis: read('--chart-axis', LIGHT.axis),
    text: read('--chart-text', LIGHT.text),
    read: read('--chart-read', LIGHT.read),
    unchanged: read('--chart-unchanged', LIGHT.unchanged),
    messages: read('--chart-messages', LIGHT.messages),
    surface: read('--chart-surface', LIGHT.surface),
    agents: LIGHT.agents.map((fallback, i) => read(`--chart-agent-${i + 1}`, fallback)),
  };
}

/** The theme's chart colours, read from the element the ref is given (see ChartColours). */
function useChartColours(): { colours: ChartColours; ref: (element: HTMLDivElement | null) => void } {
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [colours, setColours] = useState(LIGHT);
  useEffect(() => {
    if (!element) return;
    const update = () => setColours(coloursOf(element));
    update();
    const scheme = window.matchMedia('(prefers-color-scheme: dark)');
    scheme.addEventListener('change', update);
    return () => scheme.removeEventListener('change', update);
  }, [element]);
  return { colours, ref: useCallback((e: HTMLDivElement | null) => setElement(e), []) };
}

const AXIS = { fontSize: 12 };
// The grid is level lines only (vertical={false}): recharts placed its upright lines by an interval of
// its own, between the bars and away from the time labels under them, so time seemed not to line up.
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

/** The props every axis takes from the theme: its line and tick marks, and its words. */
const axisColours = (c: ChartColours) => ({ stroke: c.axis, tick: { fill: c.text }, tickLine: { stroke: c.axis } });

/** The tooltip on the theme's surface, in its text colour (it is HTML, so it reads the theme itself). */
const TOOLTIP = {
  contentStyle: { background: 'var(--surface)', borderColor: 'var(--border-strong)', color: 'var(--text)' },
  labelStyle: { color: 'var(--text)' },
  cursor: { fill: 'var(--surface-sunken)' },
};

/**
 * Room at each end of the time axis for half its longest label (at about 0.6 em a character): recharts
 * moves a label that would pass the chart's edge inward, off the bar it names, so the first and last
 * times stood between bars.
 */
function edgeRoom(points: ReadonlyArray<{ at: number }>, label: (at: number) => string): number {
  const longest = Math.max(0, ...points.map((p) => label(p.at).length));
  return Math.ceil((longest * AXIS.fontSize * 0.6) / 2);
}

function TimeAxis({ colours, points }: { colours: ChartColours; points: ReadonlyArray<{ at: number }> }): ReactElement {
  const label = axisLabeller(points);
  const room = edgeRoom(points, label);
  return (
    <XAxis dataKey="at" type="category" tickFormatter={(at: number) => label(at)} {...AXIS} {...axisColours(colours)} height={44} padding={{ left: room, right: room }}>
      <Label value="Time of the check" position="insideBottom" offset={0} {...AXIS} fill={colours.text} />
    </XAxis>
  );
}

/** Scheduled checks only (imports on request would dwarf them): files and new messages per check, and each agent's time. */
export function TickCharts({ ticks }: { ticks: readonly Tick[] }): ReactElement {
  const points = chartPoints(ticks);
  const providers = providerNames(ticks);
  const { colours: c, ref } = useChartColours();
  const legend = { wrapperStyle: { color: c.text } };
  return (
    <div className="telemetry-charts" data-testid="tick-charts" ref={ref}>
      <ChartPanel title="Files and new messages per check" label="Files read and unchanged, and new messages, per scheduled check">
        <ComposedChart data={points} margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke={c.grid} vertical={false} />
          <TimeAxis colours={c} points={points} />
          <YAxis yAxisId="files" allowDecimals={false} {...AXIS} {...axisColours(c)}>
            <Label value="Files" angle={-90} position="insideLeft" {...AXIS_TITLE} fill={c.text} />
          </YAxis>
          <YAxis yAxisId="messages" orientation="right" allowDecimals={false} width={72} {...AXIS} {...axisColours(c)}>
            <Label value="New messages" angle={90} position="insideRight" {...AXIS_TITLE} fill={c.text} />
          </YAxis>
          <Tooltip labelFormatter={(at) => axisTime(Number(at))} {...TOOLTIP} />
          <Legend {...legend} />
          <Bar yAxisId="files" dataKey="read" name="files read" stackId="files" fill={c.read} isAnimationActive={false} />
          <Bar yAxisId="files" dataKey="unchanged" name="files unchanged" stackId="files" fill={c.unchanged} isAnimationActive={false} />
          <Line yAxisId="messages" dataKey="messages" name="new messages" stroke={c.messages} dot={{ fill: c.surface }} isAnimationActive={false} />
        </ComposedChart>
      </ChartPanel>
      <ChartPanel title="Time per agent per check" label="How long each agent's folders took per scheduled check, in milliseconds">
        <BarChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke={c.grid} vertical={false} />
          <TimeAxis colours={c} points={points} />
          <YAxis {...AXIS} {...axisColours(c)}>
            <Label value="Milliseconds" angle={-90} position="insideLeft" {...AXIS_TITLE} fill={c.text} />
          </YAxis>
          <Tooltip labelFormatter={(at) => axisTime(Number(at))} {...TOOLTIP} />
          <Legend {...legend} />
          {providers.map((provider, index) => (
            <Bar key={provider} dataKey={`ms_${provider}`} name={providerLabel(provider)} stackId="ms" fill={c.agents[index % c.agents.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ChartPanel>
    </div>
  );
}
