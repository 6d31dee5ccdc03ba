import { useToolOutput } from "widgetd/react";
import styles from "./App.module.css";
import sunIcon from "./sun.svg";

export interface Day {
  day: string;
  high: number;
  low: number;
  summary: string;
}

export interface Forecast {
  city?: string;
  unit?: "C" | "F";
  days?: Day[];
}

export function App() {
  const forecast = useToolOutput<Forecast>();
  if (!forecast) {
    return <p className={styles.loading}>Waiting for the forecast…</p>;
  }
  const unit = forecast.unit ?? "C";
  return (
    <section className={styles.forecast}>
      <h1 className={styles.city}>
        <img className={styles.icon} src={sunIcon} alt="" width={24} height={24} />
        {forecast.city ?? "Unknown city"}
      </h1>
      <ol className={styles.days}>
        {(forecast.days ?? []).map((d) => (
          <li key={d.day} className={styles.day}>
            <span className={styles.name}>{d.day}</span>
            <span className={styles.temps}>
              {d.high}°{unit} / {d.low}°{unit}
            </span>
            <span className={styles.summary}>{d.summary}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
