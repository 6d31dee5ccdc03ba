import { useToolOutput, useTheme } from "widgetd/react";

type Forecast = { city: string; days: { day: string; high: number }[] };

// Read by the framework's server side in the original style; the view ignores it.
export const resource = { name: "forecast", title: "Forecast" };

export function ForecastResource() {
  const data = useToolOutput<Forecast>();
  const theme = useTheme();
  if (!data) return <p id="react-view-wait">Waiting for the forecast…</p>;
  return (
    <section className="forecast" data-theme={theme}>
      <h2 id="react-view-title">Forecast for {data.city}</h2>
      <ul>
        {data.days.map((d) => (
          <li key={d.day} className="react-view-day">
            {d.day}: {d.high}°
          </li>
        ))}
      </ul>
    </section>
  );
}
