export interface Task {
  id: number;
  title: string;
  done: boolean;
}
