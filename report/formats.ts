/**
 * Every report format of a run folder (in the order the console names their files): its name, the files it writes, and
 * the writer. The writer of the run's reports (report/write.ts), the console summary (which names the files a run
 * wrote) and bench/report-overhead.ts (which times each writer) read this list, so a new format is one entry here.
 * Formats whose files the run writes while its checks go (exchanges, Allure results) have no writer of their own at the
 * end and are listed for the names alone.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { renderCharts } from './charts.js';
import { reportHtml } from './html.js';
import { writeAllureRunInfo } from './allure-run.js';
import { writeJunit } from './junit.js';
import { summaryMarkdown } from './markdown.js';
import type { renderStateDiagrams } from './state-diagram.js';
import type { Summary } from './summary.js';

/** The SVG charts and state diagrams report.html embeds (drawn once per run, report/write.ts). */
export interface Figures {
  charts: Awaited<ReturnType<typeof renderCharts>>;
  diagrams: Awaited<ReturnType<typeof renderStateDiagrams>>;
}

export interface ReportFormat {
  /** Its name in timings and listings. */
  name: string;
  /** The files (or folders, ending in `/`) it puts in the run folder. */
  files: string[];
  /** What a reader finds in it, for listings. */
  describe: string;
  /** Writes it into `folder` once the summary is built; absent for formats written during the run. */
  write?: (folder: string, summary: Summary, figures: Figures) => void;
}

export const REPORT_FORMATS: ReportFormat[] = [
  {
    name: 'markdown',
    files: ['summary.md'],
    describe: 'the report as Markdown, for CI job summaries and merge requests',
    write: (folder, s) => writeFileSync(join(folder, 'summary.md'), summaryMarkdown(s, folder)),
  },
  {
    name: 'json',
    files: ['summary.json'],
    describe: 'the summary as versioned JSON (reports/README.md), the input of compare and merge',
  },
  {
    name: 'junit',
    files: ['junit.xml'],
    describe: 'one test case per check, for CI test views',
    write: (folder, s) => writeJunit(s, join(folder, 'junit.xml'), folder),
  },
  {
    name: 'html',
    files: ['report.html'],
    describe: 'the self-contained report: failures by cause with their exchanges, requirements, charts, state diagrams',
    write: (folder, s, f) => writeFileSync(join(folder, 'report.html'), reportHtml(s, folder, f.charts, f.diagrams)),
  },
  {
    name: 'allure',
    files: ['allure-results/'],
    describe: 'Allure results (written as each scenario file ends) and the run facts Allure shows',
    write: (folder, s) => writeAllureRunInfo(folder, s),
  },
  {
    name: 'exchanges',
    files: ['exchanges/'],
    describe: 'the requests and replies of the checks (CONFORMANCE_EXCHANGES), written as each check ends',
  },
];

/** Every file and folder name of the formats, in list order. */
export const reportFiles = () => REPORT_FORMATS.flatMap((f) => f.files);
