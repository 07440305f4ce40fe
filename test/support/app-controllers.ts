import { MODULE_METADATA } from '@nestjs/common/constants';
import { AppModule } from '../../src/app.module';
import { AppConfig } from '../../src/config/app-config';

type Controller = new (...args: never[]) => object;

/** Every controller the AppModule graph declares, read from module metadata without booting it. */
export function appControllers(): Controller[] {
  const controllers = new Set<Controller>();
  const seen = new Set<unknown>();
  const visit = (entry: unknown): void => {
    if (!entry || seen.has(entry)) return;
    seen.add(entry);
    if (typeof entry === 'object' && 'forwardRef' in entry) {
      return visit((entry as { forwardRef: () => unknown }).forwardRef());
    }
    const dynamic = typeof entry === 'object' ? (entry as Record<string, unknown[] | undefined>) : {};
    const moduleClass = typeof entry === 'function' ? entry : (entry as { module?: unknown }).module;
    const own = (key: string): unknown[] =>
      typeof moduleClass === 'function' ? ((Reflect.getMetadata(key, moduleClass) as unknown[]) ?? []) : [];
    for (const controller of [...own(MODULE_METADATA.CONTROLLERS), ...(dynamic.controllers ?? [])]) {
      controllers.add(controller as Controller);
    }
    for (const imported of [...own(MODULE_METADATA.IMPORTS), ...(dynamic.imports ?? [])]) visit(imported);
  };
  // forRoot only places the configuration in a provider; no module is built here.
  visit(AppModule.forRoot({} as AppConfig));
  return [...controllers];
}
